package dev.hookfan.sending;

import dev.hookfan.deliveries.DeliveryConfig;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** The delivery retry schedule: its own pauses with jitter, Retry-After honoured within [pause, 2 × pause]. */
final class NextAttempt {

    private final List<Duration> schedule;
    private final double jitter;

    NextAttempt(DeliveryConfig config) {
        this.schedule = List.copyOf(config.retrySchedule());
        this.jitter = config.jitter();
    }

    /** The pause after the given failed attempt (1-based), or null when the schedule is used up. */
    Duration after(int failedAttempt, Duration retryAfter) {
        if (failedAttempt > schedule.size()) {
            return null;
        }
        Duration pause = schedule.get(failedAttempt - 1);
        if (retryAfter != null) {
            Duration ceiling = pause.multipliedBy(2);
            return retryAfter.compareTo(pause) < 0 ? pause : retryAfter.compareTo(ceiling) > 0 ? ceiling : retryAfter;
        }
        double spread = jitter == 0 ? 1 : 1 + ThreadLocalRandom.current().nextDouble(-jitter, jitter);
        return Duration.ofMillis(Math.max(0, Math.round(pause.toMillis() * spread)));
    }
}
