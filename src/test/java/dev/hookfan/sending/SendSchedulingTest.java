package dev.hookfan.sending;

import dev.hookfan.support.Webhooks;
import com.standardwebhooks.Webhook;
import dev.hookfan.deliveries.DeliveryIds;
import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import dev.hookfan.support.Receiver;
import dev.hookfan.support.Receiver.Request;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The send scheduler from outside: real broker, database and subscribers. The service's timeout is 15 s here, as in
 * production, so a slow subscriber holds its sends as long as it would there.
 */
@QuarkusTest
@TestProfile(SendSchedulingTest.ProductionTimeout.class)
class SendSchedulingTest {

    public static class ProductionTimeout implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("hookfan.delivery.timeout", "15S");
        }
    }

    static final String ORG = "org_scheduling";

    Receiver fast;
    Receiver slow;
    Broker broker;

    @BeforeEach
    void start() {
        Database.reset();
        fast = Receiver.start();
        slow = Receiver.withThreads(300);
        broker = Broker.connect();
    }

    @AfterEach
    void stop() {
        fast.close();
        slow.close();
        broker.close();
    }

    String webhook(String organization, String url) {
        return webhook(organization, url, "");
    }

    String webhook(String organization, String url, String settings) {
        return Webhooks.create(organization, url, settings.startsWith(",") ? settings.substring(1) : settings);
    }

    /** Delivery rows written straight to the database, as a fan-out writes them, for the sender alone to send. */
    static List<String> rows(String webhookId, String organization, int count, String nextAttemptAt) {
        List<String> ids = IntStream.range(0, count).mapToObj(i -> UUID.randomUUID().toString().replace("-", "")).toList();
        Database.update("insert into webhook_delivery (id, webhook_id, organization_id, event_id, status, attempts,"
                + " next_attempt_at, created_at) select id, ?, ?, 'ee000000000000000000000000000000', 'pending', " + (nextAttemptAt.equals("null") ? "0" : "1")
                + ", " + nextAttemptAt + ", now() from unnest(string_to_array(?, ',')) as id",
                webhookId, organization, String.join(",", ids));
        return ids;
    }

    /** Delivery requests as the fan-out publishes them, 100 deliveries a message. */
    void request(List<String> ids, String webhookId, String organization) {
        for (int from = 0; from < ids.size(); from += 100) {
            String deliveries = ids.subList(from, Math.min(ids.size(), from + 100)).stream()
                    .map(id -> "{\"id\":\"" + id + "\",\"webhookId\":\"" + webhookId + "\",\"organizationId\":\"" + organization + "\"}")
                    .collect(Collectors.joining(","));
            broker.publishTo(Broker.DELIVERIES, ids.get(from), ("{\"type\":\"webhook.delivery_requested\",\"deliveries\":["
                    + deliveries + "]}").getBytes(StandardCharsets.UTF_8));
        }
    }

    static long delivered(String webhookId) {
        return Database.count("select count(*) from webhook_delivery where webhook_id = ? and status = 'delivered'", webhookId);
    }

    @Test
    void should_drain_a_burst_to_one_fast_webhook_from_the_fast_path_at_hundreds_a_second() {
        String webhookId = webhook(ORG, fast.url("/one"));
        List<String> ids = rows(webhookId, ORG, 3000, "null");
        request(ids, webhookId, ORG);

        // No sweep row was written: only the fast path can send these, the poller never sees them.
        await().atMost(Duration.ofSeconds(60)).until(() -> fast.requests("/one").size() >= ids.size());
        List<Request> received = fast.requests("/one");
        double seconds = (received.get(received.size() - 1).atNanos() - received.get(0).atNanos()) / 1e9;
        double perSecond = ids.size() / seconds;
        System.out.printf("SendSchedulingTest: %d deliveries to one webhook in %.2f s, %.0f/s%n", ids.size(), seconds, perSecond);
        assertTrue(perSecond >= 250, "one webhook drained at " + perSecond + " deliveries/s");
        assertEquals(ids.size(), new HashSet<>(received.stream().map(r -> r.header("webhook-id")).toList()).size());
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered(webhookId) == ids.size());
    }

    @Test
    void should_send_to_three_webhooks_each_at_its_own_limit_at_the_same_time() {
        List<String> webhooks = IntStream.range(0, 3).mapToObj(i -> {
            slow.slow("/three/" + i, 300);
            return webhook(ORG, slow.url("/three/" + i));
        }).toList();
        for (int i = 0; i < 3; i++) {
            request(rows(webhooks.get(i), ORG, 64, "null"), webhooks.get(i), ORG);
        }

        await().atMost(Duration.ofSeconds(20)).until(() -> IntStream.range(0, 3).allMatch(i -> delivered(webhooks.get(i)) == 64));
        IntStream.range(0, 3).forEach(i -> assertEquals(16, slow.peakInFlight("/three/" + i), "webhook " + i + "'s peak"));
        // Each webhook's sends overlap the others': not one webhook's 16 after another's (they start a claim apart).
        assertTrue(slow.peakInFlight() > 32 && slow.peakInFlight() <= 48, slow.peakInFlight() + " sends at once");
    }

    @Test
    void should_deliver_a_quiet_organizations_events_within_3_s_while_another_floods_slow_subscribers() {
        List<String> flooded = IntStream.range(0, 16).mapToObj(i -> {
            slow.slow("/slow/" + i, 6000);
            return webhook("org_flood", slow.url("/slow/" + i));
        }).toList();
        String quiet = webhook("org_quiet", fast.url("/quiet"));
        try {
            for (int i = 0; i < 400; i++) {
                broker.publish("bulk.imported", Broker.newMessageId(), Broker.event("bulk.imported", "org_flood", "{\"n\":" + i + "}"));
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> Database.count(
                    "select count(*) from webhook_delivery where organization_id = 'org_flood'") == 6400);
            await().atMost(Duration.ofSeconds(10)).until(() -> slow.requests("/slow/0").size() > 0);

            Map<String, Long> publishedAt = new java.util.LinkedHashMap<>();
            for (int i = 0; i < 10; i++) {
                String messageId = Broker.newMessageId();
                publishedAt.put(DeliveryIds.derive(messageId, quiet), System.nanoTime());
                broker.publish("member.added", messageId, Broker.event("member.added", "org_quiet", "{\"n\":" + i + "}"));
                sleep(300);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> fast.requests("/quiet").size() == 10);
            for (Request request : fast.requests("/quiet")) {
                double waited = (request.atNanos() - publishedAt.get(request.header("webhook-id"))) / 1e9;
                assertTrue(waited <= 3.0, "a quiet organization's delivery arrived " + waited + " s after its publish");
            }
            long slowInFlight = slow.requests("/slow/0").size();
            assertTrue(slowInFlight <= 16, "one webhook had " + slowInFlight + " sends, its limit is 16");
        } finally {
            flooded.forEach(id -> given().delete("/organizations/org_flood/webhooks/{id}", id));
        }
    }

    @Test
    void should_reach_another_webhooks_due_retry_while_one_webhook_has_a_due_backlog() {
        String busy = webhook(ORG, slow.url("/backlog"));
        slow.slow("/backlog", 1000);
        String other = webhook(ORG, fast.url("/other"));
        rows(busy, ORG, 300, "now() - interval '1 hour'");
        String retry = rows(other, ORG, 1, "now() - interval '1 minute'").get(0);
        long start = System.nanoTime();

        await().atMost(Duration.ofSeconds(5)).until(() -> fast.requests("/other").size() == 1);
        System.out.printf("SendSchedulingTest: the other webhook's retry sent after %d ms%n",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        assertEquals(retry, fast.requests("/other").get(0).header("webhook-id"));
        given().delete("/organizations/{org}/webhooks/{id}", ORG, busy).then().statusCode(204);
    }

    @Test
    void should_send_with_the_webhooks_own_headers_and_still_sign_what_it_sends() {
        Response created = given().contentType(ContentType.JSON)
                .body("{\"url\":\"" + fast.url("/headers") + "\",\"eventTypes\":[\"*\"],\"headers\":{\"X-Tenant\":\"acme\","
                        + "\"Authorization\":\"Bearer subscriber-token\"}}")
                .post("/organizations/{org}/webhooks", ORG).then().statusCode(201)
                .body("headers.X-Tenant", equalTo("acme")).extract().response();
        String messageId = Broker.newMessageId();
        broker.publish("a.b", messageId, Broker.event("a.b", ORG, "{}"));

        await().atMost(Duration.ofSeconds(10)).until(() -> fast.requests("/headers").size() == 1);
        Request request = fast.requests("/headers").get(0);
        assertEquals("acme", request.header("x-tenant"));
        assertEquals("Bearer subscriber-token", request.header("authorization"));
        assertEquals(DeliveryIds.derive(messageId, created.path("id")), request.header("webhook-id"));
        Map<String, List<String>> headers = request.headers().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> List.of(e.getValue())));
        assertDoesNotThrow(() -> new Webhook(created.<String>path("secret")).verify(request.body(), headers));
    }

    @Test
    void should_refuse_settings_that_break_the_contract_naming_each_field() {
        given().contentType(ContentType.JSON)
                .body("{\"url\":\"" + fast.url("/x") + "\",\"eventTypes\":[\"*\"],\"rateLimit\":0,\"timeout\":16,"
                        + "\"headers\":{\"webhook-signature\":\"v1,forged\",\"Connection\":\"close\",\"X-Ok\":\"a\\nb\"}}")
                .post("/organizations/{org}/webhooks", ORG).then().statusCode(400)
                .contentType("application/problem+json")
                .body("errors.field", hasItem("rateLimit"))
                .body("errors.field", hasItem("timeout"))
                .body("errors.field", hasItem("headers.webhook-signature"))
                .body("errors.field", hasItem("headers.Connection"))
                .body("errors.field", hasItem("headers.X-Ok"));
        String id = webhook(ORG, fast.url("/patched"));
        given().contentType("application/merge-patch+json").body("{\"rateLimit\":20,\"timeout\":2.5}")
                .patch("/organizations/{org}/webhooks/{id}", ORG, id).then().statusCode(200)
                .body("rateLimit", equalTo(20)).body("timeout", equalTo(2.5f)).body("url", equalTo(fast.url("/patched")));
        given().contentType("application/merge-patch+json").body("{\"rateLimit\":null}")
                .patch("/organizations/{org}/webhooks/{id}", ORG, id).then().statusCode(200)
                .body("rateLimit", equalTo(null)).body("timeout", equalTo(2.5f));
    }

    @Test
    void should_send_no_faster_than_a_webhooks_rate_limit() {
        String webhookId = webhook(ORG, fast.url("/limited"), ",\"rateLimit\":5");
        List<String> ids = rows(webhookId, ORG, 8, "null");
        request(ids, webhookId, ORG);

        await().atMost(Duration.ofSeconds(10)).until(() -> fast.requests("/limited").size() == ids.size());
        List<Request> received = fast.requests("/limited");
        // Starts are 200 ms apart; arrivals vary by a claim's round trip, so five intervals are checked, not one.
        for (int i = 5; i < received.size(); i++) {
            long spanMs = TimeUnit.NANOSECONDS.toMillis(received.get(i).atNanos() - received.get(i - 5).atNanos());
            assertTrue(spanMs >= 900, "sends " + (i - 5) + " to " + i + " came within " + spanMs + " ms, the rate is 5/s");
        }
        long allMs = TimeUnit.NANOSECONDS.toMillis(received.get(received.size() - 1).atNanos() - received.get(0).atNanos());
        assertTrue(allMs >= 1300, ids.size() + " sends within " + allMs + " ms, the rate is 5/s");
    }

    @Test
    void should_end_an_attempt_at_the_webhooks_own_timeout() {
        String webhookId = webhook(ORG, slow.url("/patient"), ",\"timeout\":0.5");
        slow.slow("/patient", 3000);
        String deliveryId = rows(webhookId, ORG, 1, "null").get(0);
        request(List.of(deliveryId), webhookId, ORG);

        await().atMost(Duration.ofSeconds(10)).until(() -> Database.count(
                "select count(*) from delivery_attempt where delivery_id = ?", deliveryId) >= 1);
        List<List<Object>> attempt = Database.query("select duration_ms, error from delivery_attempt where delivery_id = ?"
                + " order by attempt_number limit 1", deliveryId);
        int durationMs = ((Number) attempt.get(0).get(0)).intValue();
        assertTrue(durationMs >= 450 && durationMs < 1500, "the attempt lasted " + durationMs + " ms, the webhook's timeout is 0.5 s");
        assertTrue(String.valueOf(attempt.get(0).get(1)).contains("within"), String.valueOf(attempt.get(0).get(1)));
    }

    @Test
    void should_record_an_attempt_only_while_holding_the_lease_it_was_claimed_with() {
        String webhookId = webhook(ORG, slow.url("/stolen"));
        slow.slow("/stolen", 1500);
        String deliveryId = rows(webhookId, ORG, 1, "null").get(0);
        request(List.of(deliveryId), webhookId, ORG);

        await().atMost(Duration.ofSeconds(10)).until(() -> slow.requests("/stolen").size() == 1);
        // As if the lease had run out and another instance had claimed the delivery meanwhile.
        Database.update("update webhook_delivery set lease_until = now() + interval '1 hour' where id = ?", deliveryId);
        sleep(2500);
        assertEquals(List.of(List.of("pending", 0)), Database.query("select status, attempts from webhook_delivery where id = ?",
                deliveryId));
        assertEquals(0, Database.count("select count(*) from delivery_attempt_history where delivery_id = ?", deliveryId));
    }

    @Test
    void should_limit_test_sends_and_redeliveries_per_organization_with_retry_after() {
        String webhookId = webhook("org_manual", fast.url("/manual"));
        long start = System.nanoTime();
        int accepted = 0;
        Response refused = null;
        while (refused == null && accepted < 200) {
            Response answer = given().post("/organizations/org_manual/webhooks/{id}/test", webhookId);
            if (answer.statusCode() == 202) {
                accepted++;
            } else {
                refused = answer;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        // 60 a minute: the first 60 at once, then one a second.
        assertTrue(accepted >= 60 && accepted <= 60 + Math.ceil(seconds) + 1, accepted + " accepted in " + seconds + " s");
        assertNotNull(refused);
        assertEquals(429, refused.statusCode());
        assertEquals("application/problem+json", refused.contentType());
        assertTrue(Integer.parseInt(refused.header("Retry-After")) >= 1);
        String someDelivery = (String) Database.query("select id from webhook_delivery where webhook_id = ? limit 1", webhookId)
                .get(0).get(0);
        // A redelivery draws on the same allowance. One token comes back each second, so one of a quick series may
        // get through (a single call right after the 429 did once, on a slow machine); the series as a whole may not.
        List<Integer> redelivered = IntStream.range(0, 10).mapToObj(i -> given()
                .post("/organizations/org_manual/deliveries/{id}/redeliver", someDelivery).statusCode()).toList();
        double allSeconds = (System.nanoTime() - start) / 1e9;
        long redeliveredAccepted = redelivered.stream().filter(status -> status == 202).count();
        assertTrue(redelivered.contains(429), redelivered.toString());
        assertTrue(accepted + redeliveredAccepted <= 60 + Math.ceil(allSeconds) + 1,
                accepted + " tests and " + redeliveredAccepted + " redeliveries accepted in " + allSeconds + " s");
        // Another organization is not held back by this one.
        String other = webhook("org_manual_other", fast.url("/manual-other"));
        given().post("/organizations/org_manual_other/webhooks/{id}/test", other).then().statusCode(202);
    }

    @Test
    void should_refuse_a_test_send_to_a_disabled_webhook_rather_than_leave_it_pending() {
        String webhookId = webhook(ORG, fast.url("/off"), ",\"enabled\":false");
        given().post("/organizations/{org}/webhooks/{id}/test", ORG, webhookId).then().statusCode(409)
                .body("type", equalTo("https://hookfan.dev/problems/webhook-disabled"));
        assertEquals(0, Database.count("select count(*) from webhook_delivery where webhook_id = ?", webhookId));
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
