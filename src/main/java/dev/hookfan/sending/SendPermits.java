package dev.hookfan.sending;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Bounds sends in flight overall and per webhook; non-blocking: a send that finds no permit is left for later. */
final class SendPermits {

    private final int maxInFlight;
    private final int maxPerWebhook;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ConcurrentHashMap<String, AtomicInteger> perWebhook = new ConcurrentHashMap<>();

    SendPermits(int maxInFlight, int maxPerWebhook) {
        this.maxInFlight = maxInFlight;
        this.maxPerWebhook = maxPerWebhook;
    }

    boolean tryAcquire() {
        return acquire(inFlight, maxInFlight);
    }

    void release() {
        inFlight.decrementAndGet();
    }

    /** Takes as many of the wanted permits as are free, none beyond the bound; returns how many. */
    int tryAcquireUpTo(int wanted) {
        while (true) {
            int current = inFlight.get();
            int granted = Math.min(wanted, maxInFlight - current);
            if (granted <= 0) {
                return 0;
            }
            if (inFlight.compareAndSet(current, current + granted)) {
                return granted;
            }
        }
    }

    void release(int count) {
        inFlight.addAndGet(-count);
    }

    boolean tryAcquire(String webhookId) {
        boolean[] acquired = {false};
        // Acquire and release both run under the map's lock for this key, so a counter is never lost in between.
        perWebhook.compute(webhookId, (id, count) -> {
            AtomicInteger current = count == null ? new AtomicInteger() : count;
            if (current.get() < maxPerWebhook) {
                current.incrementAndGet();
                acquired[0] = true;
            }
            return current.get() == 0 ? null : current;
        });
        return acquired[0];
    }

    void release(String webhookId) {
        perWebhook.computeIfPresent(webhookId, (id, count) -> count.decrementAndGet() <= 0 ? null : count);
    }

    int available() {
        return Math.max(0, maxInFlight - inFlight.get());
    }

    int inFlight() {
        return inFlight.get();
    }

    private static boolean acquire(AtomicInteger counter, int max) {
        while (true) {
            int current = counter.get();
            if (current >= max) {
                return false;
            }
            if (counter.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }
}
