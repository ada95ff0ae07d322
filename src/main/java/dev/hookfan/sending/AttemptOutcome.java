package dev.hookfan.sending;

import java.time.Duration;
import java.time.Instant;

/** What one HTTP attempt came to. */
record AttemptOutcome(Instant startedAt, long durationMs, Integer status, String responseBody, String error,
                      Duration retryAfter) {

    static final int MAX_BODY = 1024;

    boolean succeeded() {
        return status != null && status >= 200 && status < 300;
    }

    boolean gone() {
        return status != null && status == 410;
    }

    String describe() {
        if (error != null) {
            return error;
        }
        return "HTTP " + status + (status >= 300 && status < 400 ? " (redirects are not followed)" : "");
    }
}
