package dev.hookfan.sending;

import dev.hookfan.deliveries.DeliveryConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NextAttemptTest {

    static DeliveryConfig config(double jitter, Duration... schedule) {
        return (DeliveryConfig) java.lang.reflect.Proxy.newProxyInstance(DeliveryConfig.class.getClassLoader(),
                new Class<?>[]{DeliveryConfig.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "retrySchedule" -> List.of(schedule);
                    case "jitter" -> jitter;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void should_follow_the_schedule_then_give_up() {
        NextAttempt next = new NextAttempt(config(0, Duration.ofSeconds(5), Duration.ofMinutes(5)));
        assertEquals(Duration.ofSeconds(5), next.after(1, null));
        assertEquals(Duration.ofMinutes(5), next.after(2, null));
        assertNull(next.after(3, null));
    }

    @Test
    void should_clamp_retry_after_between_the_pause_and_twice_the_pause() {
        NextAttempt next = new NextAttempt(config(0.2, Duration.ofSeconds(10)));
        assertEquals(Duration.ofSeconds(10), next.after(1, Duration.ofSeconds(1)));
        assertEquals(Duration.ofSeconds(15), next.after(1, Duration.ofSeconds(15)));
        assertEquals(Duration.ofSeconds(20), next.after(1, Duration.ofHours(1)));
    }

    @Test
    void should_spread_pauses_by_the_jitter() {
        NextAttempt next = new NextAttempt(config(0.2, Duration.ofSeconds(10)));
        for (int i = 0; i < 200; i++) {
            long millis = next.after(1, null).toMillis();
            assertTrue(millis >= 8000 && millis <= 12000, Long.toString(millis));
        }
    }

    @Test
    void should_read_retry_after_as_seconds_or_an_http_date_only_for_429_and_503() {
        java.time.Instant now = java.time.Instant.parse("2026-12-06T10:00:00Z");
        assertEquals(Duration.ofSeconds(7), RetryAfter.of(503, "7", now).orElseThrow().pause());
        assertEquals(Duration.ofSeconds(7), RetryAfter.of(429, " 7 ", now).orElseThrow().pause());
        assertTrue(RetryAfter.of(500, "7", now).isEmpty());
        assertTrue(RetryAfter.of(503, "soon", now).isEmpty());
        assertEquals(Duration.ZERO, RetryAfter.of(503, "Wed, 21 Oct 2015 07:28:00 GMT", now).orElseThrow().pause());
        assertEquals(Duration.ofSeconds(90), RetryAfter.of(429, "Sun, 06 Dec 2026 10:01:30 GMT", now).orElseThrow().pause());
    }
}
