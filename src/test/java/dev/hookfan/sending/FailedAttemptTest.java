package dev.hookfan.sending;

import dev.hookfan.deliveries.DeliveryIds;
import dev.hookfan.support.Database;
import dev.hookfan.support.Receiver.Answer;
import dev.hookfan.support.Receiver.Request;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an answer other than a success, or none, makes of an attempt: recorded, then retried on the schedule.
 */
@QuarkusTest
class FailedAttemptTest extends SenderTestSupport {

    @Test
    void should_record_a_delivery_whose_subscriber_answers_an_endless_body_after_reading_only_the_start_of_it() {
        String[] webhook = webhook("/endless");
        receiver.script("/endless", Answer.endless(200));
        String deliveryId = UUID.randomUUID().toString().replace("-", "");
        Database.update("insert into webhook_delivery (id, webhook_id, organization_id, event_id, status, attempts,"
                + " next_attempt_at, created_at) values (?, ?, ?, 'ee000000000000000000000000000000', 'pending', 0, now(), now())",
                deliveryId, webhook[0], ORG);

        // Read to its end, the answer would outlast the 2 s send timeout: a failed attempt, then a retry.
        await().atMost(Duration.ofSeconds(10)).until(() -> "delivered".equals(status(deliveryId)));
        given().get("/organizations/{org}/deliveries/{id}", ORG, deliveryId).then().statusCode(200)
                .body("attempts", is(1))
                .body("attemptHistory[0].responseStatus", is(200))
                .body("attemptHistory[0].responseBody", equalTo("x".repeat(1024)));
        assertEquals(1, receiver.requests("/endless").size());
    }

    @Test
    void should_retry_a_failed_send_after_the_configured_pause() {
        String[] webhook = webhook("/flaky");
        receiver.script("/flaky", Answer.status(500));
        String deliveryId = DeliveryIds.derive(publish("a.b"), webhook[0]);

        await().atMost(Duration.ofSeconds(15)).until(() -> "delivered".equals(status(deliveryId)));
        List<Request> requests = receiver.requests("/flaky");
        assertEquals(2, requests.size());
        assertEquals(requests.get(0).header("webhook-id"), requests.get(1).header("webhook-id"));
        Duration gap = Duration.ofNanos(requests.get(1).atNanos() - requests.get(0).atNanos());
        assertTrue(gap.compareTo(Duration.ofSeconds(1)) >= 0, gap.toString());
        given().get("/organizations/{org}/deliveries/{id}", ORG, deliveryId).then()
                .body("attempts", is(2))
                .body("attemptHistory.responseStatus", equalTo(List.of(500, 200)));
    }

    @Test
    void should_honour_retry_after_within_twice_the_pause() {
        String[] webhook = webhook("/busy");
        receiver.script("/busy", new Answer(503, Map.of("Retry-After", "2"), 0));
        String deliveryId = DeliveryIds.derive(publish("a.b"), webhook[0]);

        await().atMost(Duration.ofSeconds(15)).until(() -> "delivered".equals(status(deliveryId)));
        List<Request> requests = receiver.requests("/busy");
        Duration gap = Duration.ofNanos(requests.get(1).atNanos() - requests.get(0).atNanos());
        assertTrue(gap.compareTo(Duration.ofSeconds(2)) >= 0, gap.toString());
    }

    @Test
    void should_not_follow_a_redirect() {
        String[] webhook = webhook("/moved");
        receiver.script("/moved", new Answer(302, Map.of("Location", receiver.url("/elsewhere")), 0));
        String deliveryId = DeliveryIds.derive(publish("a.b"), webhook[0]);

        await().atMost(Duration.ofSeconds(10)).until(() -> attempts(deliveryId) >= 1);
        assertEquals(302, ((Number) Database.query("select response_status from delivery_attempt where delivery_id = ?"
                + " and attempt_number = 1", deliveryId).get(0).get(0)).intValue());
        assertEquals(0, receiver.requests("/elsewhere").size());
    }

    @Test
    void should_record_a_timeout_as_a_failed_attempt() {
        String[] webhook = webhook("/slow");
        receiver.script("/slow", new Answer(200, Map.of(), 3000));
        String deliveryId = DeliveryIds.derive(publish("a.b"), webhook[0]);

        await().atMost(Duration.ofSeconds(10)).until(() -> attempts(deliveryId) >= 1);
        List<Object> attempt = Database.query("select response_status, error from delivery_attempt where delivery_id = ?"
                + " and attempt_number = 1", deliveryId).get(0);
        assertEquals(null, attempt.get(0));
        assertTrue(attempt.get(1).toString().toLowerCase().contains("timeout"), attempt.get(1).toString());
        await().atMost(Duration.ofSeconds(10)).until(() -> "delivered".equals(status(deliveryId)));
    }
}
