package dev.hookfan.sending;

import java.time.Duration;
import java.time.Instant;

/** What one attempt came to; {@link AttemptRecorder} writes each case its own way. */
sealed interface AttemptOutcome {

    int MAX_BODY = 1024;

    Instant startedAt();

    long durationMs();

    /** The answer's status class ("2xx", "5xx"…), or "error" when there was no answer. */
    String statusClass();

    /** Answered 2xx: recorded on the delivery's own row. */
    record Delivered(Instant startedAt, long durationMs, int status, String body) implements AttemptOutcome {

        @Override
        public String statusClass() {
            return status / 100 + "xx";
        }
    }

    /** Not delivered: the attempt gets a row of its own, saying why. */
    sealed interface Failed extends AttemptOutcome {

        AttemptFailure failure();

        @Override
        default String statusClass() {
            return failure().statusClass();
        }
    }

    /** Answered 410 Gone: the webhook is disabled, and its pending deliveries cancelled. */
    record Gone(Instant startedAt, long durationMs, String body) implements Failed {

        static final int STATUS = 410;

        @Override
        public AttemptFailure failure() {
            return new AttemptFailure.Answered(STATUS, body);
        }
    }

    /** Failed, to be tried again after the pause. */
    record Retrying(Instant startedAt, long durationMs, AttemptFailure failure, Duration pause) implements Failed {
    }

    /** Failed with the retry schedule used up: the delivery has failed for good. */
    record Exhausted(Instant startedAt, long durationMs, AttemptFailure failure) implements Failed {
    }

    /** What the subscriber's answer comes to for the given attempt (1-based). */
    static AttemptOutcome answered(SubscriberClient.Answer answer, Instant startedAt, long durationMs, int attempt,
                                   NextAttempt next) {
        if (answer.status() >= 200 && answer.status() < 300) {
            return new Delivered(startedAt, durationMs, answer.status(), answer.body());
        }
        if (answer.status() == Gone.STATUS) {
            return new Gone(startedAt, durationMs, answer.body());
        }
        Duration retryAfter = RetryAfter.of(answer.status(), answer.retryAfter(), Instant.now()).map(RetryAfter::pause).orElse(null);
        return failed(new AttemptFailure.Answered(answer.status(), answer.body()), retryAfter, startedAt, durationMs, attempt, next);
    }

    /** Retrying after the schedule's next pause (the subscriber's Retry-After within it, if any), or exhausted. */
    static AttemptOutcome failed(AttemptFailure failure, Duration retryAfter, Instant startedAt, long durationMs, int attempt,
                                 NextAttempt next) {
        Duration pause = next.after(attempt, retryAfter);
        return pause == null ? new Exhausted(startedAt, durationMs, failure) : new Retrying(startedAt, durationMs, failure, pause);
    }
}
