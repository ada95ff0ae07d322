package dev.hookfan.sending;

import com.standardwebhooks.Webhook;
import dev.hookfan.deliveries.DeliveryIds;
import dev.hookfan.deliveries.RequestedDelivery;
import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import dev.hookfan.support.Receiver;
import dev.hookfan.support.Statements;
import dev.hookfan.support.Receiver.Answer;
import dev.hookfan.support.Receiver.Request;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
class DeliverySenderTest {

    static final String ORG = "org_sender";

    @Inject
    DeliverySender sender;

    @Inject
    Vertx vertx;

    Receiver receiver;
    Broker broker;

    @BeforeEach
    void start() {
        Database.reset();
        receiver = Receiver.start();
        broker = Broker.connect();
    }

    @AfterEach
    void stop() {
        receiver.close();
        broker.close();
    }

    @Test
    void should_claim_deliveries_by_id_through_the_primary_key_when_statistics_say_nothing_is_pending() {
        // What a subscriber outage looks like to the planner: statistics taken over a history of delivered rows, then
        // a backlog of pending ones that no statistics know of yet.
        String webhookId = webhook("/backlog")[0];
        String rows = "insert into webhook_delivery (id, webhook_id, event_id, organization_id, status, attempts,"
                + " next_attempt_at, created_at) select ? || lpad(i::text, 5, '0'), ?, '" + Database.EVENT + "', ?, ?, 0, %s, now()"
                + " from generate_series(1, 5000) i";
        Database.update(String.format(rows, "null"), "history", webhookId, ORG, "delivered");
        Database.update("analyze webhook_delivery");
        Database.update(String.format(rows, "now() + interval '1 hour'"), "backlog", webhookId, ORG, "pending");
        String ids = "'{backlog00001,backlog00002,backlog00003,backlog00004,backlog00005}'::varchar[]";
        // A custom plan, as the service's plan_cache_mode makes every plan: the parameters are constants to the planner.
        String plan = Database.query("explain " + DeliveryClaims.CLAIM_SOME.replace("$1", ids).replace("$2", "60000"))
                .stream().map(row -> row.get(0).toString()).collect(Collectors.joining("\n"));
        assertTrue(plan.contains("webhook_delivery_pkey"), plan);
        assertFalse(plan.contains("webhook_delivery_due_idx"), plan);
    }

    /** Creates a webhook on the receiver and returns {id, secret}. */
    String[] webhook(String path) {
        Response created = given().contentType(ContentType.JSON)
                .body("{\"url\":\"" + receiver.url(path) + "\",\"eventTypes\":[\"*\"]}")
                .post("/organizations/{org}/webhooks", ORG).then().statusCode(201).extract().response();
        return new String[]{created.path("id"), created.path("secret")};
    }

    String publish(String type) {
        String messageId = Broker.newMessageId();
        broker.publish(type, messageId, Broker.event(type, ORG, "{\"n\":1}"));
        return messageId;
    }

    static String status(String deliveryId) {
        List<List<Object>> rows = Database.query("select status from webhook_delivery where id = ?", deliveryId);
        return rows.isEmpty() ? null : (String) rows.get(0).get(0);
    }

    static long attempts(String deliveryId) {
        return Database.count("select count(*) from delivery_attempt_history where delivery_id = ?", deliveryId);
    }

    static Map<String, List<String>> headersOf(Request request) {
        return request.headers().entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> List.of(e.getValue())));
    }

    @Test
    void should_pass_the_publishers_traceparent_to_the_subscriber_unchanged_with_tracing_off() {
        webhook("/traced");
        String traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        broker.publish("a.b", Broker.newMessageId(), Broker.event("a.b", ORG, "{}").getBytes(java.nio.charset.StandardCharsets.UTF_8),
                Map.of("traceparent", traceparent));

        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/traced").size() == 1);
        assertEquals(traceparent, receiver.requests("/traced").get(0).header("traceparent"));
    }

    @Test
    void should_send_a_signed_delivery_once_that_the_reference_library_verifies() {
        String[] webhook = webhook("/ok");
        String messageId = publish("organization.member_removed");
        String deliveryId = DeliveryIds.derive(messageId, webhook[0]);

        await().atMost(Duration.ofSeconds(10)).until(() -> "delivered".equals(status(deliveryId)));
        List<Request> requests = receiver.requests("/ok");
        assertEquals(1, requests.size());
        Request request = requests.get(0);
        assertDoesNotThrow(() -> new Webhook(webhook[1]).verify(request.body(), headersOf(request)));
        assertEquals(deliveryId, request.header("webhook-id"));
        assertEquals("organization.member_removed", request.header("hookfan-event-type"));
        assertEquals(messageId, request.header("hookfan-message-id"));
        assertTrue(request.header("user-agent").startsWith("Hookfan/"));
        assertTrue(request.header("content-type").startsWith("application/json"));
        assertTrue(request.body().contains("\"delivery\":\"" + deliveryId + "\""));
        assertEquals("{\"delivery\":\"" + deliveryId + "\"," + Database.query("select e.body from webhook_delivery d"
                + " join delivery_event e on e.id = d.event_id where d.id = ?", deliveryId).get(0).get(0), request.body());
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).until(() -> receiver.requests("/ok").size() == 1);
        given().get("/organizations/{org}/deliveries/{id}", ORG, deliveryId).then().statusCode(200)
                .body("status", equalTo("delivered")).body("attempts", is(1))
                .body("attemptHistory[0].responseStatus", is(200))
                .body("attemptHistory[0].responseBody", equalTo("answered 200"))
                .body("deliveredAt", notNullValue());
    }

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

    @Test
    void should_redeliver_the_same_delivery_with_the_same_id() {
        String[] webhook = webhook("/again");
        String deliveryId = DeliveryIds.derive(publish("a.b"), webhook[0]);
        await().atMost(Duration.ofSeconds(10)).until(() -> "delivered".equals(status(deliveryId)));

        given().post("/organizations/{org}/deliveries/{id}/redeliver", ORG, deliveryId).then().statusCode(202)
                .body("deliveryId", equalTo(deliveryId));
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/again").size() == 2
                && "delivered".equals(status(deliveryId)));
        List<Request> requests = receiver.requests("/again");
        assertEquals(requests.get(0).header("webhook-id"), requests.get(1).header("webhook-id"));
        assertEquals(requests.get(0).body(), requests.get(1).body());
        assertEquals(2, attempts(deliveryId));
        // The first success left the row for delivery_attempt when the redelivery reopened it; the second is on the row.
        assertEquals(1, Database.count("select count(*) from delivery_attempt where delivery_id = ?", deliveryId));
        given().get("/organizations/{org}/deliveries/{id}", ORG, deliveryId).then()
                .body("attempts", is(2))
                .body("attemptHistory.attempt", equalTo(List.of(1, 2)))
                .body("attemptHistory.responseStatus", equalTo(List.of(200, 200)));
        given().post("/organizations/{org}/deliveries/{id}/redeliver", "org_other", deliveryId).then().statusCode(404);
    }

    @Test
    void should_redeliver_without_writing_back_what_a_success_recorded_at_the_same_moment_replaced() throws Exception {
        String webhookId = webhook("/raced")[0];
        String deliveryId = UUID.randomUUID().toString().replace("-", "");
        // In flight elsewhere: claimed for an hour by an attempt whose success is being recorded right now.
        Database.update("insert into webhook_delivery (id, webhook_id, organization_id, event_id, status, attempts,"
                + " lease_until, created_at) values (?, ?, ?, ?, 'pending', 0, now() + interval '1 hour', now())",
                deliveryId, webhookId, ORG, Database.EVENT);
        CompletableFuture<Integer> redeliver;
        try (AutoCloseable success = Database.committingOnClose("update webhook_delivery set status = 'delivered', attempts = 1,"
                + " delivered_at = now(), lease_until = null, success_started_at = now(), success_duration_ms = 3,"
                + " success_status = 200, success_body = 'ok' where id = ?", deliveryId)) {
            redeliver = CompletableFuture.supplyAsync(() -> given()
                    .post("/organizations/{org}/deliveries/{id}/redeliver", ORG, deliveryId).statusCode());
            await().atMost(Duration.ofSeconds(10)).until(() -> Database.waitingForALock("update webhook_delivery%") >= 1);
        }
        assertEquals(202, redeliver.get(10, java.util.concurrent.TimeUnit.SECONDS));
        // Sent again at once: the redelivery wrote back neither the old lease nor the old status over the success.
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/raced").size() == 1
                && "delivered".equals(status(deliveryId)));
        assertEquals(deliveryId, receiver.requests("/raced").get(0).header("webhook-id"));
        assertEquals(2L, attempts(deliveryId));
        assertEquals(java.util.Arrays.asList((Object) null), Database.query("select lease_until from webhook_delivery where id = ?",
                deliveryId).get(0));
    }

    @Test
    void should_refuse_to_redeliver_for_a_deleted_webhook() {
        String[] webhook = webhook("/deleted");
        String deliveryId = DeliveryIds.derive(publish("a.b"), webhook[0]);
        await().atMost(Duration.ofSeconds(10)).until(() -> "delivered".equals(status(deliveryId)));
        given().delete("/organizations/{org}/webhooks/{id}", ORG, webhook[0]).then().statusCode(204);
        given().post("/organizations/{org}/deliveries/{id}/redeliver", ORG, deliveryId).then().statusCode(409)
                .contentType("application/problem+json");
    }

    @Test
    void should_sweep_a_pending_delivery_whose_request_message_never_came() {
        String[] webhook = webhook("/swept");
        String deliveryId = UUID.randomUUID().toString().replace("-", "");
        Database.update("insert into webhook_delivery (id, webhook_id, organization_id, event_id, status, attempts,"
                + " next_attempt_at, created_at) values (?, ?, ?, ?, 'pending', 0, now(), now())",
                deliveryId, webhook[0], ORG, Database.EVENT);

        await().atMost(Duration.ofSeconds(10)).until(() -> "delivered".equals(status(deliveryId)));
        assertEquals(1, receiver.requests("/swept").size());
        assertEquals("{\"delivery\":\"" + deliveryId + "\"," + Database.EVENT_BODY, receiver.requests("/swept").get(0).body());
    }

    @Test
    void should_send_the_deliveries_of_a_due_sweep_row_whose_request_never_came_and_only_then() {
        String webhookId = webhook("/lost")[0];
        List<String> ids = IntStream.range(0, 3).mapToObj(i -> UUID.randomUUID().toString().replace("-", "")).toList();
        for (String id : ids) {
            // As the fan-out writes them: no next attempt, so only the request or the sweep row can get them sent.
            Database.update("insert into webhook_delivery (id, webhook_id, organization_id, event_id, status,"
                    + " attempts, created_at) values (?, ?, ?, 'ee000000000000000000000000000000', 'pending', 0, now())", id, webhookId, ORG);
        }
        String array = "{" + String.join(",", ids) + "}";
        Database.update("insert into delivery_sweep (delivery_ids, due_at) values (?::varchar[], now() + interval '1 hour')", array);

        // Three polls pass: a sweep row that is not due leaves its deliveries alone.
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(4)).until(() -> receiver.requests("/lost").isEmpty());
        Database.update("update delivery_sweep set due_at = now()");

        await().atMost(Duration.ofSeconds(10)).until(() -> ids.stream().allMatch(id -> "delivered".equals(status(id))));
        assertEquals(Set.copyOf(ids), Set.copyOf(receiver.requests("/lost").stream().map(r -> r.header("webhook-id")).toList()));
        assertEquals(3, receiver.requests("/lost").size());
        assertEquals(0, Database.count("select count(*) from delivery_sweep"));
    }

    @Test
    void should_sweep_past_a_delivery_another_transaction_holds_and_keep_a_sweep_row_for_it_until_it_is_free() throws Exception {
        String webhookId = webhook("/held")[0];
        // Sorted: the held delivery comes first, where a sweep locking in id order would wait for it.
        List<String> ids = IntStream.range(0, 2).mapToObj(i -> UUID.randomUUID().toString().replace("-", "")).sorted().toList();
        for (String id : ids) {
            Database.update("insert into webhook_delivery (id, webhook_id, organization_id, event_id, status,"
                    + " attempts, created_at) values (?, ?, ?, 'ee000000000000000000000000000000', 'pending', 0, now())", id, webhookId, ORG);
        }
        String held = ids.get(0);
        String free = ids.get(1);

        // As a claim or a record of another instance holds a row while the poller sweeps. The sweep row is written
        // only once the lock is held: written before, a poll in between could sweep both while both were free.
        try (AutoCloseable lock = Database.holding("select id from webhook_delivery where id = ? for update", held)) {
            Database.update("insert into delivery_sweep (delivery_ids, due_at) values (?::varchar[], now())",
                    "{" + String.join(",", ids) + "}");
            await().atMost(Duration.ofSeconds(10)).until(() -> "delivered".equals(status(free)));
            assertEquals(1, Database.count("select count(*) from delivery_sweep where ? = any(delivery_ids)", held));
            assertEquals(0, Database.count("select count(*) from delivery_sweep where ? = any(delivery_ids)", free));
            assertEquals(1, Database.count("select count(*) from webhook_delivery where id = ? and next_attempt_at is null", held));
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> "delivered".equals(status(held)));
        assertEquals(List.of(held, free), receiver.requests("/held").stream().map(r -> r.header("webhook-id")).sorted().toList());
        await().atMost(Duration.ofSeconds(5)).until(() -> Database.count("select count(*) from delivery_sweep") == 0);
    }

    @Test
    void should_send_each_attempt_once_when_claims_race() {
        String[] webhook = webhook("/race");
        List<String> ids = IntStream.range(0, 40).mapToObj(i -> UUID.randomUUID().toString().replace("-", "")).toList();
        for (String id : ids) {
            // Three fast-path requests race for each, and the poller once they are due.
            Database.update("insert into webhook_delivery (id, webhook_id, organization_id, event_id, status,"
                    + " attempts, next_attempt_at, created_at) values (?, ?, ?, 'ee000000000000000000000000000000', 'pending', 0,"
                    + " now() + interval '2 seconds', now())", id, webhook[0], ORG);
        }
        List<CompletableFuture<Void>> requests = ids.stream()
                .flatMap(id -> IntStream.range(0, 3).mapToObj(copy -> requestOnItsOwnContext(id, webhook[0])))
                .toList();
        requests.forEach(CompletableFuture::join);

        await().atMost(Duration.ofSeconds(20)).until(() -> Database.count(
                "select count(*) from webhook_delivery where webhook_id = ? and status = 'delivered'", webhook[0]) == ids.size());
        List<String> received = receiver.requests("/race").stream().map(r -> r.header("webhook-id")).toList();
        assertEquals(ids.size(), received.size());
        assertEquals(Set.copyOf(ids), Set.copyOf(received));
        assertFalse(ids.stream().anyMatch(id -> attempts(id) != 1));
    }

    @Test
    void should_send_every_delivery_that_one_request_message_names() {
        List<String> webhooks = IntStream.range(0, 3).mapToObj(i -> webhook("/batch/" + i)[0]).toList();
        List<String> ids = new java.util.ArrayList<>();
        for (String webhookId : webhooks) {
            String id = UUID.randomUUID().toString().replace("-", "");
            ids.add(id);
            // Due only in an hour: the poller leaves them alone, so only the request message can send them.
            Database.update("insert into webhook_delivery (id, webhook_id, organization_id, event_id, status,"
                    + " attempts, next_attempt_at, created_at) values (?, ?, ?, 'ee000000000000000000000000000000', 'pending', 0,"
                    + " now() + interval '1 hour', now())", id, webhookId, ORG);
        }
        broker.publishTo(Broker.DELIVERIES, "not-a-delivery-id", request(IntStream.range(0, ids.size())
                .mapToObj(i -> new RequestedDelivery(ids.get(i), webhooks.get(i), ORG)).toList()));

        await().atMost(Duration.ofSeconds(10)).until(() -> ids.stream().allMatch(id -> "delivered".equals(status(id))));
        List<String> received = received("/batch/", 3);
        assertEquals(Set.copyOf(ids), Set.copyOf(received));
        assertEquals(3, received.size());
    }

    @Test
    void should_send_every_delivery_of_a_request_burst_beyond_the_send_permits() {
        // 300 deliveries named at once, 256 permits: the rest must wait for permits, not be left to a poller that
        // (due only in an hour) would not send them.
        List<String> ids = new java.util.ArrayList<>();
        List<RequestedDelivery> named = new java.util.ArrayList<>();
        for (int w = 0; w < 30; w++) {
            String webhookId = webhook("/burst")[0];
            for (int d = 0; d < 10; d++) {
                String id = UUID.randomUUID().toString().replace("-", "");
                ids.add(id);
                named.add(new RequestedDelivery(id, webhookId, ORG));
                Database.update("insert into webhook_delivery (id, webhook_id, organization_id, event_id, status,"
                        + " attempts, next_attempt_at, created_at) values (?, ?, ?, 'ee000000000000000000000000000000', 'pending', 0,"
                        + " now() + interval '1 hour', now())", id, webhookId, ORG);
            }
        }
        broker.publishTo(Broker.DELIVERIES, ids.get(0), request(named));

        await().atMost(Duration.ofSeconds(20)).until(() ->
                Database.count("select count(*) from webhook_delivery where status = 'delivered'") == 300);
        List<String> received = receiver.requests("/burst").stream().map(r -> r.header("webhook-id")).toList();
        assertEquals(Set.copyOf(ids), Set.copyOf(received));
        assertEquals(300, received.size());
    }

    @Test
    void should_claim_for_requests_in_hand_at_once_in_shared_statements_and_send_each_delivery_once() {
        List<String> webhooks = IntStream.range(0, 4).mapToObj(i -> webhook("/shared/" + i)[0]).toList();
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String id = UUID.randomUUID().toString().replace("-", "");
            ids.add(id);
            // Due only in an hour: only the request messages can send them.
            Database.update("insert into webhook_delivery (id, webhook_id, organization_id, event_id, status,"
                    + " attempts, next_attempt_at, created_at) values (?, ?, ?, 'ee000000000000000000000000000000', 'pending', 0,"
                    + " now() + interval '1 hour', now())", id, webhooks.get(i % webhooks.size()), ORG);
        }
        Statements statements = Statements.countedFromNow();
        for (int i = 0; i < ids.size(); i++) {
            // Each delivery is named by two requests: the second must find it claimed, not send it again.
            int next = (i + 1) % ids.size();
            broker.publishTo(Broker.DELIVERIES, ids.get(i), request(List.of(
                    new RequestedDelivery(ids.get(i), webhooks.get(i % webhooks.size()), ORG),
                    new RequestedDelivery(ids.get(next), webhooks.get(next % webhooks.size()), ORG))));
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> ids.stream().allMatch(id -> "delivered".equals(status(id))));
        long claims = statements.calls("update webhook_delivery d set lease_until%d.id = any%");
        assertTrue(claims < ids.size(), claims + " claim statements for " + ids.size() + " requests: " + statements.ran());
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> received("/shared/", 4).size() == ids.size());
        assertEquals(Set.copyOf(ids), Set.copyOf(received("/shared/", 4)));
    }

    /** A delivery request as the fan-out publishes it: each delivery named with its webhook. */
    static byte[] request(List<RequestedDelivery> deliveries) {
        return ("{\"type\":\"webhook.delivery_requested\",\"deliveries\":[" + deliveries.stream()
                .map(d -> "{\"id\":\"" + d.id() + "\",\"webhookId\":\"" + d.webhookId() + "\",\"organizationId\":\""
                        + d.organizationId() + "\"}")
                .collect(Collectors.joining(",")) + "]}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private List<String> received(String pathPrefix, int webhooks) {
        return IntStream.range(0, webhooks).mapToObj(i -> receiver.requests(pathPrefix + i)).flatMap(List::stream)
                .map(r -> r.header("webhook-id")).toList();
    }

    private CompletableFuture<Void> requestOnItsOwnContext(String deliveryId, String webhookId) {
        CompletableFuture<Void> queued = new CompletableFuture<>();
        VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext()).runOnContext(ignored ->
                sender.requested(List.of(new RequestedDelivery(deliveryId, webhookId, ORG)))
                        .subscribe().with(queued::complete, queued::completeExceptionally));
        return queued;
    }

    @Test
    void should_sign_with_both_secrets_during_the_rotation_grace() {
        String[] webhook = webhook("/rotated");
        String newer = given().post("/organizations/{org}/webhooks/{id}/secret/rotate", ORG, webhook[0])
                .then().statusCode(200).extract().path("secret");
        String deliveryId = DeliveryIds.derive(publish("a.b"), webhook[0]);

        await().atMost(Duration.ofSeconds(10)).until(() -> "delivered".equals(status(deliveryId)));
        Request request = receiver.requests("/rotated").get(0);
        assertEquals(2, request.header("webhook-signature").split(" ").length);
        assertDoesNotThrow(() -> new Webhook(newer).verify(request.body(), headersOf(request)));
        assertDoesNotThrow(() -> new Webhook(webhook[1]).verify(request.body(), headersOf(request)));
        assertTrue(request.header("webhook-signature").startsWith(
                Signatures.sign(newer, deliveryId, Long.parseLong(request.header("webhook-timestamp")), request.body())));
    }

    @Test
    void should_sign_with_a_secret_an_operator_replaced_straight_in_the_database_once_its_notification_arrives() {
        String[] webhook = webhook("/replaced");
        String other = webhook("/other")[1];
        String first = DeliveryIds.derive(publish("a.b"), webhook[0]);
        await().atMost(Duration.ofSeconds(10)).until(() -> "delivered".equals(status(first)));

        // Not through the API: only the secret table's trigger and its notification tell the sender's cache.
        Database.update("update webhook_secret set expires_at = now() where webhook_id = ?", webhook[0]);
        Database.update("insert into webhook_secret (webhook_id, secret, created_at) values (?, ?, now())", webhook[0], other);
        settleNotifications();
        String second = DeliveryIds.derive(publish("a.b"), webhook[0]);
        await().atMost(Duration.ofSeconds(10)).until(() -> "delivered".equals(status(second)));

        Request request = receiver.requests("/replaced").get(1);
        assertEquals(second, request.header("webhook-id"));
        assertEquals(1, request.header("webhook-signature").split(" ").length);
        assertDoesNotThrow(() -> new Webhook(other).verify(request.body(), headersOf(request)));
    }

    @Test
    void should_leave_a_requested_delivery_unsent_and_unleased_when_its_webhook_was_disabled_since() throws Exception {
        String webhookId = webhook("/disabled")[0];
        String deliveryId = UUID.randomUUID().toString().replace("-", "");
        Database.update("insert into webhook_delivery (id, webhook_id, organization_id, event_id, status, attempts,"
                + " created_at) values (?, ?, ?, 'ee000000000000000000000000000000', 'pending', 0, now())", deliveryId, webhookId, ORG);
        Database.update("update webhook set enabled = false where id = ?", webhookId);
        settleNotifications();

        requestOnItsOwnContext(deliveryId, webhookId).get(5, java.util.concurrent.TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(5)).until(() -> Database.query(
                "select lease_until from webhook_delivery where id = ?", deliveryId).get(0).get(0) == null);
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).until(() -> receiver.requests("/disabled").isEmpty());
        assertEquals("pending", status(deliveryId));
        assertEquals(0L, attempts(deliveryId));
    }

    /** PostgreSQL delivers a committed change's NOTIFY within milliseconds on loopback; this leaves it ample time. */
    static void settleNotifications() {
        try {
            Thread.sleep(300);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
