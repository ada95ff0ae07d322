package dev.hookfan.retention;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hookfan.deliveries.DeliveryIds;
import dev.hookfan.deliveries.WebhookFanOutHandler;
import dev.hookfan.events.IntegrationEvent;
import dev.hookfan.support.Database;
import dev.hookfan.support.Webhooks;
import dev.hookfan.support.Dispatch;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The purge, run every second on rows older than a few seconds, in batches of two. */
@QuarkusTest
@TestProfile(RetentionTest.Seconds.class)
class RetentionTest {

    static final String ORG = "org_retention";

    public static class Seconds implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("hookfan.retention.deliveries", "3S", "hookfan.retention.audit-entries", "3S",
                    "hookfan.retention.interval", "1S", "hookfan.retention.batch-size", "2",
                    // Nothing here is sent: the rows are written by hand or to a webhook no one listens on.
                    "hookfan.delivery.sending-enabled", "false");
        }
    }

    @Inject
    WebhookFanOutHandler fanOut;

    @Inject
    Dispatch dispatch;

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    @BeforeEach
    void reset() {
        Database.reset();
    }

    static String webhook() {
        return Webhooks.create(ORG, "http://127.0.0.1:9/none");
    }

    static void event(String id, int deliveries) {
        Database.update("insert into delivery_event (id, organization_id, event_type, body, deliveries, created_at)"
                + " values (?, ?, 'a.b', ?, ?, now() - interval '1 hour')", id, ORG, Database.EVENT_BODY, deliveries);
    }

    static void delivery(String id, String webhookId, String eventId, String status, String age) {
        Database.update("insert into webhook_delivery (id, webhook_id, organization_id, event_id, status, attempts, created_at)"
                + " values (?, ?, ?, ?, ?, 1, now() - ?::interval)", id, webhookId, ORG, eventId, status, age);
    }

    /**
     * A failed delivery an hour old and its attempt, in one statement: written apart, the purge (every second) could
     * take the delivery in between, and the attempt then had nothing to refer to (seen in CI).
     */
    static void failedWithAnAttempt(String id, String webhookId, String eventId) {
        Database.update("with d as (insert into webhook_delivery (id, webhook_id, organization_id, event_id, status,"
                + " attempts, created_at) values (?, ?, ?, ?, 'failed', 1, now() - interval '1 hour') returning id)"
                + " insert into delivery_attempt (delivery_id, attempt_number, started_at, duration_ms, error)"
                + " select id, 1, now(), 1, 'x' from d", id, webhookId, ORG, eventId);
    }

    static long rows(String table, String where, Object... parameters) {
        return Database.count("select count(*) from " + table + " where " + where, parameters);
    }

    @Test
    void should_purge_finished_deliveries_with_their_attempts_and_never_a_pending_one() {
        String webhook = webhook();
        event("e1", 5);
        delivery("d_delivered", webhook, "e1", "delivered", "1 hour");
        failedWithAnAttempt("d_failed", webhook, "e1");
        delivery("d_cancelled", webhook, "e1", "cancelled", "1 hour");
        delivery("d_pending_old", webhook, "e1", "pending", "400 days");
        delivery("d_fresh", webhook, "e1", "delivered", "0 seconds");

        await().atMost(Duration.ofSeconds(10)).until(() -> rows("webhook_delivery", "id in ('d_delivered', 'd_failed',"
                + " 'd_cancelled')") == 0);
        assertEquals(0, rows("delivery_attempt", "delivery_id = 'd_failed'"));
        assertEquals(1, rows("webhook_delivery", "id = 'd_pending_old'"));
        // The fresh one goes too once it is older than the retention; the pending one, never.
        await().atMost(Duration.ofSeconds(10)).until(() -> rows("webhook_delivery", "id = 'd_fresh'") == 0);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> rows("webhook_delivery", "id = 'd_pending_old'") == 1);
        // Its event stays as long as a delivery refers to it, with the count of those that do.
        assertEquals(1, rows("delivery_event", "id = 'e1' and deliveries = 1"));
    }

    @Test
    void should_delete_an_event_once_no_delivery_refers_to_it_and_then_find_the_message_new_again() {
        String webhook = webhook();
        String messageId = "3f2504e0-4f89-11d3-9a0c-0305e82c3301";
        IntegrationEvent event = new IntegrationEvent("a.b", ORG, Instant.parse("2026-12-01T00:00:00Z"),
                JsonNodeFactory.instance.objectNode().put("n", 1));
        dispatch.run(fanOut, messageId, event);
        String deliveryId = DeliveryIds.derive(messageId, webhook);
        String eventId = DeliveryIds.event(messageId, ORG);
        Database.update("update webhook_delivery set status = 'delivered' where id = ?", deliveryId);

        await().atMost(Duration.ofSeconds(10)).until(() -> rows("delivery_event", "id = ?", eventId) == 0);
        assertEquals(0, rows("webhook_delivery", "id = ?", deliveryId));
        given().get("/organizations/{org}/deliveries/{id}", ORG, deliveryId).then().statusCode(404);
        given().get("/organizations/{org}/webhooks/{id}/deliveries", ORG, webhook).then().statusCode(200)
                .body(not(containsString(deliveryId)));

        // The deduplication window is the retention: the same message after it is a new delivery.
        dispatch.run(fanOut, messageId, event);
        assertEquals(1, rows("webhook_delivery", "id = ? and status = 'pending'", deliveryId));
        assertEquals(1, rows("delivery_event", "id = ? and deliveries = 1", eventId));
    }

    @Test
    void should_purge_old_audit_entries_only() {
        Database.update("insert into audit_entry (id, organization_id, source_message_id, event_type, recorded_at, data)"
                + " select md5(i::text), ?, 'm' || i, 'a.b', now() - interval '1 hour', '{}' from generate_series(1, 5) i", ORG);
        Database.update("insert into audit_entry (id, organization_id, source_message_id, event_type, recorded_at, data)"
                + " values ('fresh', ?, 'fresh', 'a.b', now() + interval '1 hour', '{}')", ORG);

        await().atMost(Duration.ofSeconds(10)).until(() -> rows("audit_entry", "true") == 1);
        assertEquals(1, rows("audit_entry", "id = 'fresh'"));
    }

    @Test
    void should_skip_rows_another_purger_holds_and_wait_for_no_one() throws Exception {
        String webhook = webhook();
        event("e2", 3);
        for (String id : new String[]{"h1", "h2", "h3"}) {
            delivery(id, webhook, "e2", "delivered", "1 hour");
        }
        // Another instance mid-purge holds the purge lock: this one skips its rounds and holds up nothing.
        try (AutoCloseable otherPurger = Database.holding("select pg_advisory_xact_lock(hashtext('hookfan.retention'), 1)")) {
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> rows("webhook_delivery", "true") == 3);
            assertEquals(0, Database.waitingForALock("%delete from webhook_delivery%"));
        }
        // A row a sender or a redelivery has locked is left for a later round, not waited for.
        try (AutoCloseable locked = Database.holding("select 1 from webhook_delivery where id = 'h2' for update")) {
            await().atMost(Duration.ofSeconds(10)).until(() -> rows("webhook_delivery", "true") == 1);
            assertEquals(1, rows("webhook_delivery", "id = 'h2'"));
            assertEquals(0, Database.waitingForALock("%delete from webhook_delivery%"));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> rows("webhook_delivery", "true") == 0);
        assertEquals(0, rows("delivery_event", "id = 'e2'"));
    }

    @Test
    void should_count_what_it_purged_per_table_and_say_how_old_the_oldest_finished_delivery_is() throws Exception {
        String webhook = webhook();
        event("e3", 1);
        failedWithAnAttempt("m1", webhook, "e3");
        await().atMost(Duration.ofSeconds(10)).until(() -> rows("webhook_delivery", "id = 'm1'") == 0);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            String text = given().get(metrics).then().statusCode(200).extract().asString();
            for (String table : new String[]{"webhook_delivery", "delivery_attempt", "delivery_event"}) {
                assertTrue(purged(text, table) >= 1, table + " in\n" + text);
            }
        });
        event("e4", 1);
        delivery("kept", webhook, "e4", "delivered", "2 seconds");
        // Held, so the purge skips it once it is past the retention (a second later) while its age is read: unheld, a
        // round that came late on a loaded machine purged it before any round had reported it (seen in CI).
        try (AutoCloseable held = Database.holding("select 1 from webhook_delivery where id = 'kept' for update")) {
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertTrue(given().get(metrics).then().extract().asString()
                    .lines().anyMatch(line -> line.startsWith("hookfan_deliveries_oldest_finished_seconds ")
                            && Double.parseDouble(line.substring(line.indexOf(' ') + 1)) >= 2)));
        }
    }

    static double purged(String metrics, String table) {
        return metrics.lines().filter(line -> line.startsWith("hookfan_retention_purged_total{") && line.contains("table=\"" + table + "\""))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }
}
