package dev.hookfan.sending;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** What an attempt comes to, case by case, before anything is written. */
class AttemptOutcomeTest {

    static final NextAttempt NEXT = new NextAttempt(NextAttemptTest.config(0, Duration.ofSeconds(5), Duration.ofMinutes(5)));
    static final Instant STARTED = Instant.parse("2026-12-07T10:00:00Z");

    static AttemptOutcome answered(int status, String retryAfter, int attempt) {
        return AttemptOutcome.answered(new SubscriberClient.Answer(status, "body", retryAfter), STARTED, 12, attempt, NEXT);
    }

    @Test
    void should_be_delivered_on_any_2xx_and_gone_on_410() {
        assertEquals(new AttemptOutcome.Delivered(STARTED, 12, 204, "body"), answered(204, null, 1));
        assertEquals(new AttemptOutcome.Gone(STARTED, 12, "body"), answered(410, null, 1));
        assertEquals(new AttemptFailure.Answered(410, "body"), ((AttemptOutcome.Gone) answered(410, null, 1)).failure());
    }

    @Test
    void should_retry_any_other_answer_on_the_schedule_honouring_retry_after_then_be_exhausted() {
        assertEquals(new AttemptOutcome.Retrying(STARTED, 12, new AttemptFailure.Answered(500, "body"), Duration.ofSeconds(5)),
                answered(500, "60", 1));
        assertEquals(Duration.ofSeconds(8), ((AttemptOutcome.Retrying) answered(503, "8", 1)).pause());
        assertEquals(new AttemptOutcome.Exhausted(STARTED, 12, new AttemptFailure.Answered(302, "body")), answered(302, null, 3));
    }

    @Test
    void should_describe_a_failure_and_class_it_for_the_send_counter() {
        assertEquals("HTTP 302 (redirects are not followed)", new AttemptFailure.Answered(302, null).describe());
        assertEquals("HTTP 500", new AttemptFailure.Answered(500, null).describe());
        AttemptOutcome unanswered = AttemptOutcome.failed(new AttemptFailure.Unanswered("TimeoutException: late"), null,
                STARTED, 12, 2, NEXT);
        assertInstanceOf(AttemptOutcome.Retrying.class, unanswered);
        assertEquals("TimeoutException: late", ((AttemptOutcome.Failed) unanswered).failure().describe());
        assertEquals("error", unanswered.statusClass());
        assertEquals("5xx", answered(503, null, 1).statusClass());
        assertEquals("4xx", answered(410, null, 1).statusClass());
        assertEquals("2xx", answered(200, null, 1).statusClass());
    }
}
