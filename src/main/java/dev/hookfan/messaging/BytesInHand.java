package dev.hookfan.messaging;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The bytes of the messages being handled, shared by every consumer of the work queue: parsing, rendering and encoding
 * a message costs a few times its size, so what is handled at once is bounded by bytes as well as by count. A message
 * larger than the whole budget is still handled, alone.
 */
final class BytesInHand {

    private final long max;
    private final List<Runnable> waiting = new CopyOnWriteArrayList<>();
    private long taken;

    BytesInHand(long max) {
        this.max = max;
    }

    /** Whoever is told when room comes back. */
    void onRoom(Runnable drain) {
        waiting.add(drain);
    }

    synchronized boolean take(long bytes) {
        if (taken > 0 && taken + bytes > max) {
            return false;
        }
        taken += bytes;
        return true;
    }

    void release(long bytes) {
        synchronized (this) {
            taken -= bytes;
        }
        waiting.forEach(Runnable::run);
    }

    synchronized long taken() {
        return taken;
    }
}
