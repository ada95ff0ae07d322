package dev.hookfan.messaging;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

/** Exponential backoff of the event channel: pause n = min(min + delta × (2ⁿ − 1), max). */
public record RetrySchedule(List<Duration> pauses) {

    public static RetrySchedule of(MessagingConfig.Retry retry) {
        return new RetrySchedule(IntStream.range(0, retry.limit())
                .mapToObj(attempt -> pause(retry, attempt))
                .toList());
    }

    private static Duration pause(MessagingConfig.Retry retry, int attempt) {
        Duration pause = retry.minInterval().plus(retry.intervalDelta().multipliedBy((1L << attempt) - 1));
        return pause.compareTo(retry.maxInterval()) < 0 ? pause : retry.maxInterval();
    }

    public int limit() {
        return pauses.size();
    }

    /** Whether a message that has failed {@code attemptsSoFar} times may be tried again. */
    public boolean allowsRetryAfter(int attemptsSoFar) {
        return attemptsSoFar <= limit();
    }

    /** Pause before the retry that follows the given number of failed attempts (1-based). */
    public Duration pauseAfter(int attemptsSoFar) {
        return pauses.get(attemptsSoFar - 1);
    }

    /** One tier queue per distinct pause, so changing the settings never needs broker surgery. */
    public List<Duration> distinctPauses() {
        return pauses.stream().distinct().toList();
    }
}
