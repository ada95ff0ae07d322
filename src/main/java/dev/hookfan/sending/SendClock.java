package dev.hookfan.sending;

import java.util.function.BiConsumer;

/** Timers and the clock of the {@link SendScheduler}, so it can be tested without Vert.x. */
interface SendClock {

    long nanoTime();

    void after(long nanos, Runnable action);

    /** The system's clock, with timers from the caller (Vert.x in the service). */
    static SendClock system(BiConsumer<Long, Runnable> timer) {
        return new SendClock() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public void after(long nanos, Runnable action) {
                timer.accept(nanos, action);
            }
        };
    }
}
