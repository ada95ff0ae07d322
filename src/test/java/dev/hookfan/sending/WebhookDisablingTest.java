package dev.hookfan.sending;

import dev.hookfan.deliveries.DeliveryIds;
import dev.hookfan.support.Database;
import dev.hookfan.support.Receiver.Answer;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * When the sender disables a webhook: at once on 410 Gone, or once its deliveries failed throughout the configured
 * window, and not before.
 */
@QuarkusTest
class WebhookDisablingTest extends SenderTestSupport {

    @Test
    void should_disable_the_webhook_and_cancel_pending_deliveries_on_410() {
        String[] webhook = webhook("/gone");
        receiver.script("/gone", Answer.status(410));
        // Pending before the event is published: written after, it could come after the 410 cancelled the others.
        Database.update("insert into webhook_delivery (id, webhook_id, organization_id, event_id, status, attempts,"
                + " next_attempt_at, created_at) values ('e0000000000000000000000000000001', ?, ?, 'ee000000000000000000000000000000', 'pending', 1,"
                + " now() + interval '1 hour', now())", webhook[0], ORG);
        String deliveryId = DeliveryIds.derive(publish("a.b"), webhook[0]);

        await().atMost(Duration.ofSeconds(10)).until(() -> "cancelled".equals(status(deliveryId)));
        assertEquals("cancelled", status("e0000000000000000000000000000001"));
        given().get("/organizations/{org}/webhooks/{id}", ORG, webhook[0]).then()
                .body("enabled", is(false)).body("disabledReason", notNullValue());
        // A new version, so an API update that read the webhook before this cannot re-enable it (WebhookResourceTest).
        assertEquals(1L, Database.count("select version from webhook where id = ?", webhook[0]));
    }

    @Test
    void should_disable_a_webhook_whose_deliveries_failed_for_the_configured_time() {
        String[] webhook = webhook("/down");
        receiver.script("/down", Answer.status(500));
        // Failing for six days, the last failure an hour ago: failures throughout the five-day window.
        Database.update("update webhook set failing_since = now() - interval '6 days', last_failure_at = now() - interval '1 hour'"
                + " where id = ?", webhook[0]);
        String deliveryId = DeliveryIds.derive(publish("a.b"), webhook[0]);

        await().atMost(Duration.ofSeconds(10)).until(() -> "cancelled".equals(status(deliveryId)));
        given().get("/organizations/{org}/webhooks/{id}", ORG, webhook[0]).then()
                .body("enabled", is(false)).body("disabledReason", notNullValue());
    }

    @Test
    void should_not_disable_a_quiet_webhook_on_one_failure_long_after_its_last() {
        // One exhausted delivery six days ago, then nothing: silence longer than a day is no evidence it stayed down.
        assertEquals(List.of(true, true, false), afterOneMoreFailure("/quiet", "6 days", "5 days",
                "failing_since > now() - interval '1 minute'"));
    }

    @Test
    void should_not_disable_a_webhook_failing_for_less_than_the_window() {
        assertEquals(List.of(true, true, false), afterOneMoreFailure("/recent", "4 days 23 hours", "1 hour",
                "failing_since < now() - interval '4 days'"));
    }

    /**
     * A webhook failing for the first interval, its last failure the second interval ago, fails once more: answers
     * whether it is still enabled, the given check of its row, and whether that delivery was cancelled.
     */
    List<Object> afterOneMoreFailure(String path, String failingFor, String lastFailedAgo, String check) {
        String[] webhook = webhook(path);
        receiver.script(path, Answer.status(503));
        Database.update("update webhook set failing_since = now() - ?::interval, last_failure_at = now() - ?::interval"
                + " where id = ?", failingFor, lastFailedAgo, webhook[0]);
        String deliveryId = DeliveryIds.derive(publish("a.b"), webhook[0]);

        await().atMost(Duration.ofSeconds(10)).until(() -> attempts(deliveryId) >= 1);
        List<Object> row = new java.util.ArrayList<>(Database.query("select enabled, " + check + " from webhook where id = ?",
                webhook[0]).get(0));
        row.add("cancelled".equals(status(deliveryId)));
        return row;
    }
}
