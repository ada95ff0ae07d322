package dev.hookfan.sending;

import java.util.ArrayList;
import java.util.List;

/**
 * The instance's room for sends: how many are in flight, who waits for one to end, and how much swept work it could
 * use. Guarded by the {@link SendScheduler}.
 */
final class InstanceRoom {

    /** Rounds of sends that swept work is found ahead of: a poll interval's worth at a fast subscriber's pace. */
    static final int SWEEP_ROUNDS = 16;

    private final int max;
    private final List<Runnable> waiters = new ArrayList<>();
    int inFlight;

    InstanceRoom(int max) {
        this.max = max;
    }

    boolean full() {
        return inFlight >= max;
    }

    void await(Runnable then) {
        waiters.add(then);
    }

    /** The waiters to run now, if a send could start; they leave the line. */
    List<Runnable> released() {
        if (waiters.isEmpty() || full()) {
            return List.of();
        }
        List<Runnable> released = List.copyOf(waiters);
        waiters.clear();
        return released;
    }

    /**
     * How many swept deliveries could be used: {@link #SWEEP_ROUNDS} rounds of sends, less the queued work that could
     * start within them ({@code held}); none while the instance is full.
     */
    int sweepBudget(long held) {
        return full() ? 0 : (int) Math.max(0, (long) SWEEP_ROUNDS * max - held);
    }
}
