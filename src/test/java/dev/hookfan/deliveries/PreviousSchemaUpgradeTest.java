package dev.hookfan.deliveries;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.standardwebhooks.Webhook;
import dev.hookfan.events.IntegrationEvent;
import dev.hookfan.support.Database;
import dev.hookfan.support.Dispatch;
import dev.hookfan.support.Receiver;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItems;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The upgrade to event bodies stored once (V13), from a database the previous schema (V11) wrote: every old delivery
 * is still listed, shown, sent and redelivered with the very bytes it was stored with, and a replay after the upgrade
 * finds the event the migration made out of the old rows.
 */
@QuarkusTest
@TestProfile(PreviousSchemaUpgradeTest.UpgradedFromV11.class)
class PreviousSchemaUpgradeTest {

    static final String DATABASE = "hookfan_previous";
    static final String ORG = "org_previous";
    static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    static final String FIRST = "a0000000000000000000000000000001";
    static final String SECOND = "a0000000000000000000000000000002";
    static final String SHARED_MESSAGE = "3f2504e0-4f89-11d3-9a0c-0305e82c3301";
    static final IntegrationEvent EVENT = new IntegrationEvent("organization.member_removed", ORG,
            Instant.parse("2026-11-01T10:00:00.123456Z"), JsonNodeFactory.instance.objectNode().put("memberId", "m_\u00e9\"1\"")
            .set("nested", JsonNodeFactory.instance.objectNode().put("n", 1.5)));
    static final String DELIVERED = DeliveryIds.derive(SHARED_MESSAGE, FIRST);
    static final String PENDING = DeliveryIds.derive(SHARED_MESSAGE, SECOND);
    static final String FAILED = DeliveryIds.derive("order-42", FIRST);
    static final String TEST_SEND = "b0000000000000000000000000000001";
    static Receiver receiver;

    public static class UpgradedFromV11 implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(V11Database.class));
        }
    }

    /** Before the service starts: a database at V11 holding what the V11 service wrote, which its start migrates. */
    public static class V11Database implements QuarkusTestResourceLifecycleManager {
        @Override
        public Map<String, String> start() {
            receiver = Receiver.start();
            String password = System.getenv().getOrDefault("QUARKUS_DATASOURCE_PASSWORD", "postgres");
            String server = "jdbc:postgresql://localhost:5432/";
            try (Connection admin = DriverManager.getConnection(server + "postgres", "postgres", password)) {
                admin.createStatement().execute("drop database if exists " + DATABASE + " with (force)");
                admin.createStatement().execute("create database " + DATABASE);
                Flyway.configure().dataSource(server + DATABASE, "postgres", password).locations("classpath:db/migration")
                        .target("11").load().migrate();
                try (Connection db = DriverManager.getConnection(server + DATABASE, "postgres", password)) {
                    writtenByV11(db);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return Map.of("quarkus.datasource.reactive.url", "postgresql://localhost:5432/" + DATABASE,
                    "quarkus.datasource.jdbc.url", server + DATABASE);
        }

        private static void writtenByV11(Connection db) throws Exception {
            for (String webhook : List.of(FIRST, SECOND)) {
                execute(db, "insert into webhook (id, organization_id, url, event_types, enabled, created_at, updated_at)"
                        + " values (?, ?, ?, '{*}', true, now(), now())", webhook, ORG, receiver.url("/" + webhook));
                execute(db, "insert into webhook_secret (webhook_id, secret, created_at) values (?, ?, now())", webhook, SECRET);
            }
            // One message to both webhooks: delivered to the first (its success on the row, V7), due for the second.
            row(db, DELIVERED, FIRST, SHARED_MESSAGE, EVENT, "delivered", 1, null, "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
            execute(db, "update webhook_delivery set delivered_at = now(), success_started_at = now(), success_duration_ms = 12,"
                    + " success_status = 200, success_body = 'ok' where id = ?", DELIVERED);
            row(db, PENDING, SECOND, SHARED_MESSAGE, EVENT, "pending", 0, "now()", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
            // Another message: failed after an attempt with a row of its own.
            IntegrationEvent other = new IntegrationEvent("billing.invoice_paid", ORG, null, JsonNodeFactory.instance.objectNode());
            row(db, FAILED, FIRST, "order-42", other, "failed", 1, null, null);
            execute(db, "insert into delivery_attempt (delivery_id, attempt_number, started_at, duration_ms, response_status,"
                    + " response_body) values (?, 1, now(), 5, 500, 'boom')", FAILED);
            // A test send: no message id.
            row(db, TEST_SEND, FIRST, null, new IntegrationEvent("webhook.test", ORG, Instant.parse("2026-11-02T00:00:00Z"),
                    JsonNodeFactory.instance.objectNode().put("webhookId", FIRST)), "delivered", 1, null, null);
        }

        private static void row(Connection db, String id, String webhook, String messageId, IntegrationEvent event, String status,
                                int attempts, String nextAttemptAt, String traceparent) throws Exception {
            execute(db, "insert into webhook_delivery (id, webhook_id, organization_id, message_id, event_type, payload, status,"
                    + " attempts, next_attempt_at, traceparent, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, " + nextAttemptAt
                    + ", ?, now() - interval '1 day')", id, webhook, ORG, messageId, event.type(), stored(id, event, messageId),
                    status, attempts, traceparent);
        }

        private static void execute(Connection db, String sql, Object... parameters) throws Exception {
            try (PreparedStatement statement = db.prepareStatement(sql)) {
                for (int i = 0; i < parameters.length; i++) {
                    statement.setObject(i + 1, parameters[i]);
                }
                statement.execute();
            }
        }

        @Override
        public void stop() {
            receiver.close();
        }
    }

    /** The payload exactly as the V11 service stored it on each delivery row. */
    static String stored(String deliveryId, IntegrationEvent event, String messageId) {
        try {
            return DeliveryBodyTest.previousSchemasPayload(deliveryId, event, messageId);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Inject
    WebhookFanOutHandler fanOut;

    @Inject
    Dispatch dispatch;

    @Inject
    ObjectMapper mapper;

    @Test
    void should_send_a_delivery_pending_before_the_upgrade_with_the_bytes_it_was_stored_with() {
        await().atMost(Duration.ofSeconds(15)).until(() -> !receiver.requests("/" + SECOND).isEmpty());
        Receiver.Request request = receiver.requests("/" + SECOND).get(0);
        assertEquals(stored(PENDING, EVENT, SHARED_MESSAGE), request.body());
        assertEquals("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", request.header("traceparent"));
        assertEquals(SHARED_MESSAGE, request.header("hookfan-message-id"));
        Map<String, List<String>> headers = request.headers().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> List.of(e.getValue())));
        assertDoesNotThrow(() -> new Webhook(SECRET).verify(request.body(), headers));
    }

    @Test
    void should_list_and_show_every_old_delivery_with_the_payload_it_was_stored_with() {
        given().get("/organizations/{org}/webhooks/{id}/deliveries", ORG, FIRST).then().statusCode(200)
                .body("items.id", hasItems(DELIVERED, FAILED, TEST_SEND));
        given().get("/organizations/{org}/deliveries/{id}", ORG, DELIVERED).then().statusCode(200)
                .body(containsString("\"payload\":" + stored(DELIVERED, EVENT, SHARED_MESSAGE)))
                .body("messageId", org.hamcrest.Matchers.equalTo(SHARED_MESSAGE))
                .body("attemptHistory[0].responseBody", org.hamcrest.Matchers.equalTo("ok"));
        given().get("/organizations/{org}/deliveries/{id}", ORG, FAILED).then().statusCode(200)
                .body("attemptHistory[0].responseStatus", org.hamcrest.Matchers.is(500));
    }

    @Test
    void should_redeliver_old_deliveries_with_the_bytes_they_were_stored_with() {
        int before = receiver.requests("/" + FIRST).size();
        for (String id : List.of(FAILED, TEST_SEND)) {
            given().post("/organizations/{org}/deliveries/{id}/redeliver", ORG, id).then().statusCode(202);
        }
        await().atMost(Duration.ofSeconds(15)).until(() -> receiver.requests("/" + FIRST).size() >= before + 2);
        List<String> bodies = receiver.requests("/" + FIRST).stream().map(Receiver.Request::body).toList();
        assertEquals(true, bodies.contains(stored(FAILED, new IntegrationEvent("billing.invoice_paid", ORG, null,
                JsonNodeFactory.instance.objectNode()), "order-42")), bodies.toString());
        assertEquals(true, bodies.contains(stored(TEST_SEND, new IntegrationEvent("webhook.test", ORG,
                Instant.parse("2026-11-02T00:00:00Z"), JsonNodeFactory.instance.objectNode().put("webhookId", FIRST)), null)));
    }

    @Test
    void should_store_one_event_for_the_deliveries_of_one_message_under_the_id_the_service_derives() {
        assertEquals(Set.of(DELIVERED, PENDING), Set.copyOf(Database.query("select id from webhook_delivery where event_id = ?",
                DeliveryIds.event(SHARED_MESSAGE, ORG)).stream().map(row -> row.get(0)).toList()).stream()
                .filter(id -> !id.equals(DeliveryIds.derive(SHARED_MESSAGE, thirdIfAny()))).collect(Collectors.toSet()));
        // Three events (two messages and the test send), each counting exactly the rows that refer to it.
        assertEquals(3L, Database.count("select count(*) from delivery_event"));
        assertEquals(0L, Database.count("select count(*) from delivery_event e"
                + " where deliveries <> (select count(*) from webhook_delivery d where d.event_id = e.id)"));
        assertEquals(0L, Database.count("select count(*) from information_schema.columns where table_name = 'webhook_delivery'"
                + " and column_name in ('payload', 'message_id', 'event_type', 'traceparent')"));
    }

    /** The webhook the replay test adds, if it ran first. */
    static String thirdIfAny() {
        List<List<Object>> rows = Database.query("select id from webhook where url like '%/third'");
        return rows.isEmpty() ? "none" : (String) rows.get(0).get(0);
    }

    @Test
    void should_add_a_new_webhooks_delivery_to_the_migrated_event_when_the_old_message_comes_again() {
        String third = given().contentType("application/json")
                .body("{\"url\":\"" + receiver.url("/third") + "\",\"eventTypes\":[\"*\"]}")
                .post("/organizations/{org}/webhooks", ORG).then().statusCode(201).extract().path("id");
        dispatch.run(fanOut, SHARED_MESSAGE, EVENT);

        String added = DeliveryIds.derive(SHARED_MESSAGE, third);
        assertEquals(List.of(List.of(DeliveryIds.event(SHARED_MESSAGE, ORG))),
                Database.query("select event_id from webhook_delivery where id = ?", added));
        assertEquals(3L, Database.count("select deliveries from delivery_event where id = ?",
                DeliveryIds.event(SHARED_MESSAGE, ORG)));
        await().atMost(Duration.ofSeconds(15)).until(() -> !receiver.requests("/third").isEmpty());
        assertEquals(stored(added, EVENT, SHARED_MESSAGE), receiver.requests("/third").get(0).body());
    }
}
