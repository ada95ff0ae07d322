package dev.hookfan.sending;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/** A subscriber's request for a pause (RFC 9110 Retry-After), honoured only on 429 and 503. */
record RetryAfter(Duration pause) {

    /** The pause asked for: the header is seconds or an HTTP date; anything else, or another status, asks for none. */
    static Optional<RetryAfter> of(int status, String header, Instant now) {
        if ((status != 429 && status != 503) || header == null || header.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new RetryAfter(Duration.ofSeconds(Math.max(0, Long.parseLong(header.trim())))));
        } catch (NumberFormatException notSeconds) {
            try {
                ZonedDateTime at = ZonedDateTime.parse(header.trim(), DateTimeFormatter.RFC_1123_DATE_TIME);
                Duration wait = Duration.between(now, at.toInstant());
                return Optional.of(new RetryAfter(wait.isNegative() ? Duration.ZERO : wait));
            } catch (RuntimeException notADate) {
                return Optional.empty();
            }
        }
    }
}
