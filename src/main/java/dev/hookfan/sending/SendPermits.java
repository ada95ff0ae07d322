package dev.hookfan.sending;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounds sends in flight overall and per webhook. Never blocks a thread: the poller takes what is free now, and
 * the fast path may wait, asynchronously, for permits to come back, so its queue is held back instead of skipped.
 */
final class SendPermits {

    private record Waiter(int wanted, UniEmitter<? super Integer> granted, AtomicBoolean settled) {
    }

    private final int maxInFlight;
    private final int maxPerWebhook;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ConcurrentHashMap<String, AtomicInteger> perWebhook = new ConcurrentHashMap<>();
    private final Queue<Waiter> waiters = new ArrayDeque<>();

    SendPermits(int maxInFlight, int maxPerWebhook) {
        this.maxInFlight = maxInFlight;
        this.maxPerWebhook = maxPerWebhook;
    }

    boolean tryAcquire() {
        return tryAcquireUpTo(1) == 1;
    }

    void release() {
        release(1);
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
        wakeWaiters();
    }

    /** Completes with 1 to wanted permits as soon as any is free, in the order asked; never with none. */
    Uni<Integer> acquireUpTo(int wanted) {
        int granted = tryAcquireUpTo(wanted);
        if (granted > 0) {
            return Uni.createFrom().item(granted);
        }
        return Uni.createFrom().emitter(emitter -> {
            Waiter waiter = new Waiter(wanted, emitter, new AtomicBoolean());
            // Cancelled while waiting (shutdown): leave the queue, so no permit is ever granted to nobody.
            emitter.onTermination(() -> {
                if (waiter.settled().compareAndSet(false, true)) {
                    synchronized (waiters) {
                        waiters.remove(waiter);
                    }
                }
            });
            synchronized (waiters) {
                waiters.add(waiter);
            }
            // A release between the failed try and the enqueue would otherwise leave this waiter asleep.
            wakeWaiters();
        });
    }

    private void wakeWaiters() {
        List<Runnable> grants = new ArrayList<>();
        synchronized (waiters) {
            for (Waiter next; (next = waiters.peek()) != null; ) {
                int granted = tryAcquireUpTo(next.wanted());
                if (granted == 0) {
                    break;
                }
                waiters.remove();
                Waiter waiter = next;
                grants.add(() -> {
                    if (waiter.settled().compareAndSet(false, true)) {
                        waiter.granted().complete(granted);
                    } else {
                        release(granted);
                    }
                });
            }
        }
        // Outside the lock: a waiter's continuation may itself release or wait.
        grants.forEach(Runnable::run);
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
}
