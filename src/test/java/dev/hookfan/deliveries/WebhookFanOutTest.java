package dev.hookfan.deliveries;

import dev.hookfan.support.Webhooks;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hookfan.events.IntegrationEvent;
import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import dev.hookfan.support.Dispatch;
import dev.hookfan.support.Pages;
import dev.hookfan.support.RecordingDeliveryRequests;
import dev.hookfan.support.Statements;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
class WebhookFanOutTest {

    static final String ORG = "org_fanout";
    // Nothing listens there: the sender's attempts fail fast and stay out of these tests' way.
    static final String NOWHERE = "http://127.0.0.1:9/hooks";

    @Inject
    WebhookFanOutHandler fanOut;

    @Inject
    Dispatch dispatch;

    Broker broker;

    @BeforeEach
    void reset() {
        Database.reset();
        RecordingDeliveryRequests.REQUESTED.clear();
        broker = Broker.connect();
        broker.purge(Broker.DLQ);
    }

    @AfterEach
    void close() {
        RecordingDeliveryRequests.confirmsHeldUntil = null;
        broker.close();
    }

    static String webhook(String org, String types, boolean enabled) {
        return Webhooks.create(org, NOWHERE, "\"eventTypes\":" + types, "\"enabled\":" + enabled);
    }

    static IntegrationEvent event(String type) {
        return new IntegrationEvent(type, ORG, Instant.parse("2026-12-02T10:00:00Z"),
                JsonNodeFactory.instance.objectNode().put("memberId", "m_1"));
    }

    static long deliveries(String messageId) {
        return Database.count("select count(*) from webhook_delivery where event_id in (select id from delivery_event where message_id = ?)", messageId);
    }

    @Test
    void should_not_queue_a_second_delivery_when_the_same_message_is_handled_again() {
        String first = webhook(ORG, "[\"organization.member_removed\"]", true);
        String second = webhook(ORG, "[\"*\"]", true);
        String messageId = Broker.newMessageId();

        dispatch.run(fanOut, messageId, event("organization.member_removed"));
        assertEquals(2, deliveries(messageId));
        assertEquals(Set.of(DeliveryIds.derive(messageId, first), DeliveryIds.derive(messageId, second)),
                Set.copyOf(RecordingDeliveryRequests.REQUESTED));

        // Let the creations' change notifications land first, so they cannot empty the cache mid-measurement.
        settleNotifications();
        dispatch.run(fanOut, messageId, event("organization.member_removed"));
        RecordingDeliveryRequests.REQUESTED.clear();
        try (InsertStatements inserts = InsertStatements.into("webhook_delivery")) {
            Statements statements = Statements.countedFromNow();
            dispatch.run(fanOut, messageId, event("organization.member_removed"));
            // The replay, counted at PostgreSQL: one lookup of the existing ids (the subscriptions are cached), no
            // transaction, no write.
            assertEquals(1, statements.calls("select id from webhook_delivery where id = any%"));
            assertEquals(0, statements.calls("select%from webhook %"));
            assertEquals(1, statements.selects(), statements.ran());
            assertEquals(0, statements.calls("begin%"));
            assertEquals(0, statements.calls("insert%"));
            // A statement trigger fires even for an insert that would insert nothing.
            assertEquals(0, inserts.count());
        }
        assertEquals(2, deliveries(messageId));
        assertEquals(List.of(), RecordingDeliveryRequests.REQUESTED);
        // The counter does see the insert of a new message's rows: both in one statement.
        String next = Broker.newMessageId();
        try (InsertStatements inserts = InsertStatements.into("webhook_delivery")) {
            dispatch.run(fanOut, next, event("organization.member_removed"));
            assertEquals(1, inserts.count());
        }
        assertEquals(2, deliveries(next));
    }

    @Test
    void should_write_the_next_events_rows_while_the_last_events_delivery_request_awaits_its_confirm() throws Exception {
        String webhook = webhook(ORG, "[\"*\"]", true);
        String first = Broker.newMessageId();
        String second = Broker.newMessageId();
        CompletableFuture<Void> confirm = new CompletableFuture<>();
        RecordingDeliveryRequests.confirmsHeldUntil = confirm;
        try {
            CompletableFuture<Void> firstDone = dispatch.start(fanOut, first, event("organization.member_removed"));
            await().atMost(Duration.ofSeconds(10)).until(() -> deliveries(first) == 1);
            CompletableFuture<Void> secondDone = dispatch.start(fanOut, second, event("organization.member_removed"));
            // The database is not left idle while the broker confirms the first event's request.
            await().atMost(Duration.ofSeconds(10)).until(() -> deliveries(second) == 1);
            assertFalse(firstDone.isDone(), "an event is handled only once the request naming its rows is confirmed");
            confirm.complete(null);
            firstDone.get(10, TimeUnit.SECONDS);
            secondDone.get(10, TimeUnit.SECONDS);
        } finally {
            confirm.complete(null);
        }
        assertEquals(Set.of(DeliveryIds.derive(first, webhook), DeliveryIds.derive(second, webhook)),
                Set.copyOf(RecordingDeliveryRequests.REQUESTED));
    }

    @Test
    void should_fan_out_to_a_webhook_added_after_the_organizations_subscriptions_were_cached() {
        String first = webhook(ORG, "[\"*\"]", true);
        settleNotifications();
        dispatch.run(fanOut, Broker.newMessageId(), event("organization.member_removed"));
        String second = webhook(ORG, "[\"organization.member_removed\"]", true);

        String messageId = Broker.newMessageId();
        dispatch.run(fanOut, messageId, event("organization.member_removed"));
        assertEquals(Set.of(DeliveryIds.derive(messageId, first), DeliveryIds.derive(messageId, second)),
                Set.copyOf(Database.query("select id from webhook_delivery where event_id in (select id from delivery_event where message_id = ?)", messageId)
                        .stream().map(row -> row.get(0)).toList()));
    }

    @Test
    void should_stop_fanning_out_to_a_webhook_an_operator_disabled_straight_in_the_database() {
        String kept = webhook(ORG, "[\"*\"]", true);
        String disabled = webhook(ORG, "[\"*\"]", true);
        settleNotifications();
        dispatch.run(fanOut, Broker.newMessageId(), event("organization.member_removed"));

        // Not through the API: only the table's trigger and its notification tell the cache.
        Database.update("update webhook set enabled = false where id = ?", disabled);
        settleNotifications();
        String messageId = Broker.newMessageId();
        dispatch.run(fanOut, messageId, event("organization.member_removed"));
        assertEquals(List.of(DeliveryIds.derive(messageId, kept)),
                Database.query("select id from webhook_delivery where event_id in (select id from delivery_event where message_id = ?)", messageId)
                        .stream().map(row -> row.get(0)).toList());
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
    void should_write_the_payload_with_the_delivery_id_inside() {
        String id = webhook(ORG, "[\"*\"]", true);
        String messageId = "3f2504e0-4f89-11d3-9a0c-0305e82c3301";
        dispatch.run(fanOut, messageId, event("organization.member_removed"));

        String deliveryId = DeliveryIds.derive(messageId, id);
        given().get("/organizations/{org}/deliveries/{id}", ORG, deliveryId).then().statusCode(200)
                .body("payload.delivery", equalTo(deliveryId))
                .body("payload.type", equalTo("organization.member_removed"))
                .body("payload.organizationId", equalTo(ORG))
                .body("payload.occurredAt", equalTo("2026-12-02T10:00:00Z"))
                .body("payload.messageId", equalTo(messageId))
                .body("payload.data.memberId", equalTo("m_1"));
        given().get("/organizations/{org}/deliveries/{id}", "org_other", deliveryId).then().statusCode(404);
        given().get("/organizations/{org}/webhooks/{id}/deliveries", ORG, id).then().statusCode(200)
                .body("items.id", equalTo(List.of(deliveryId)));
        given().get("/organizations/{org}/webhooks/{id}/deliveries", "org_other", id).then().statusCode(404);
        given().queryParam("status", "bogus").get("/organizations/{org}/webhooks/{id}/deliveries", ORG, id)
                .then().statusCode(400).body("errors[0].field", equalTo("status"));
    }

    @Test
    void should_page_a_webhooks_deliveries_newest_first_when_asked_and_refuse_another_order() {
        String id = webhook(ORG, "[\"*\"]", true);
        List<String> newestFirst = new ArrayList<>(nineDeliveriesSevenAtOneInstant(id));
        java.util.Collections.reverse(newestFirst);

        Pages.Walked walked = Pages.walk(3, "/organizations/{org}/webhooks/{id}/deliveries?order=newest", ORG, id);
        assertEquals(newestFirst, walked.ids());
        assertEquals(3, walked.pages());
        io.restassured.RestAssured.given().get("/organizations/{org}/webhooks/{id}/deliveries?order=sideways", ORG, id)
                .then().statusCode(400).body("errors[0].field", org.hamcrest.Matchers.equalTo("order"));
    }

    /** Nine deliveries of the webhook (and nine of another), seven written at one instant, in listing order. */
    List<String> nineDeliveriesSevenAtOneInstant(String id) {
        String other = webhook(ORG, "[\"*\"]", true);
        // One fan-out batch writes all its rows at one instant: the listing must order them by id within it.
        OffsetDateTime batch = OffsetDateTime.parse("2026-12-02T10:00:00Z");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            OffsetDateTime at = i < 7 ? batch : batch.plusSeconds(i);
            String deliveryId = DeliveryIds.derive("m_" + i, id);
            insertCancelled(deliveryId, id, at);
            insertCancelled(DeliveryIds.derive("m_" + i, other), other, at);
            expected.add(deliveryId);
        }
        expected.subList(0, 7).sort(null);
        return expected;
    }

    @Test
    void should_page_a_webhooks_deliveries_in_creation_order_without_duplicates_or_gaps_when_they_share_an_instant() {
        String id = webhook(ORG, "[\"*\"]", true);
        List<String> expected = nineDeliveriesSevenAtOneInstant(id);

        Pages.Walked walked = Pages.walk(3, "/organizations/{org}/webhooks/{id}/deliveries", ORG, id);
        assertEquals(expected, walked.ids());
        assertEquals(3, walked.pages());
    }

    static void insertCancelled(String deliveryId, String webhookId, OffsetDateTime createdAt) {
        Database.update("insert into webhook_delivery (id, webhook_id, organization_id, event_id, status, created_at)"
                + " values (?, ?, ?, ?, 'cancelled', ?)", deliveryId, webhookId, ORG, Database.EVENT, createdAt);
    }

    @Test
    void should_write_one_row_per_webhook_when_twenty_copies_are_handled_at_once() {
        List<String> webhooks = IntStream.range(0, 3).mapToObj(i -> webhook(ORG, "[\"*\"]", true)).toList();
        String messageId = Broker.newMessageId();

        List<CompletableFuture<Void>> copies = IntStream.range(0, 20)
                .mapToObj(i -> dispatch.start(fanOut, messageId, event("organization.member_removed")))
                .toList();
        CompletableFuture.allOf(copies.toArray(CompletableFuture[]::new)).join();

        assertEquals(3, deliveries(messageId));
        // Only the attempt that inserted a row asks for its send.
        assertEquals(webhooks.stream().map(w -> DeliveryIds.derive(messageId, w)).collect(Collectors.toSet()),
                Set.copyOf(RecordingDeliveryRequests.REQUESTED));
        assertEquals(3, RecordingDeliveryRequests.REQUESTED.size());
    }

    @Test
    void should_write_only_the_rows_another_writer_committed_after_the_lookup_missed_them() throws Exception {
        String first = webhook(ORG, "[\"*\"]", true);
        String second = webhook(ORG, "[\"*\"]", true);
        String messageId = Broker.newMessageId();
        String theirs = DeliveryIds.derive(messageId, first);
        String ours = DeliveryIds.derive(messageId, second);

        CompletableFuture<Void> handled;
        // The other writer's row is not committed yet: the lookup misses it and the insert waits on its key.
        try (AutoCloseable otherWriter = Database.committingOnClose("insert into webhook_delivery (id, webhook_id,"
                + " organization_id, event_id, status, created_at) values (?, ?, ?, ?, 'cancelled', now())",
                theirs, first, ORG, Database.EVENT)) {
            handled = dispatch.start(fanOut, messageId, event("organization.member_removed"));
            await().atMost(Duration.ofSeconds(10)).until(() -> Database.waitingForALock("with inserted as (insert into webhook_delivery%") == 1);
        }
        handled.get(10, TimeUnit.SECONDS);

        assertEquals(2, Database.count("select count(*) from webhook_delivery where id in (?, ?)", theirs, ours));
        // The other writer's row refers to an event of its own here; ours stored the event and counts its one row.
        assertEquals(1, Database.count("select deliveries from delivery_event where id = ?", DeliveryIds.event(messageId, ORG)));
        assertEquals(1, Database.count("select count(*) from webhook_delivery where id = ? and status = 'cancelled'", theirs));
        // Only the row this attempt wrote is requested and has a sweep row.
        assertEquals(List.of(ours), List.copyOf(RecordingDeliveryRequests.REQUESTED));
        assertEquals(1, Database.count("select count(*) from delivery_sweep where ? = any(delivery_ids)", ours));
        assertEquals(0, Database.count("select count(*) from delivery_sweep where ? = any(delivery_ids)", theirs));
    }

    @Test
    void should_insert_fresh_rows_without_checking_each_for_a_conflict() {
        webhook(ORG, "[\"*\"]", true);
        String messageId = Broker.newMessageId();
        Statements statements = Statements.countedFromNow();

        dispatch.run(fanOut, messageId, event("organization.member_removed"));

        // ON CONFLICT checks the unique index before each row: only a unique violation makes the insert pay for it.
        assertEquals(1, statements.calls("with inserted as (insert into webhook_delivery%"), statements.ran());
        assertEquals(0, statements.calls("%on conflict%"), statements.ran());
        assertEquals(1, deliveries(messageId));
    }

    @Test
    void should_fan_out_once_when_the_broker_delivers_the_same_message_twice() {
        webhook(ORG, "[\"organization.member_removed\"]", true);
        webhook(ORG, "[\"*\"]", true);
        webhook(ORG, "[\"billing.entitlements_updated\"]", true);
        webhook(ORG, "[\"*\"]", false);
        webhook("org_elsewhere", "[\"*\"]", true);
        String messageId = Broker.newMessageId();
        String body = Broker.event("organization.member_removed", ORG, "{}");

        broker.publish("organization.member_removed", messageId, body);
        broker.publish("organization.member_removed", messageId, body);

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries(messageId) == 2);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> deliveries(messageId) == 2);
        assertEquals(0, Database.count("select count(*) from webhook_delivery where organization_id = 'org_elsewhere'"));
        assertEquals(0, broker.count(Broker.DLQ));
    }

    @Test
    void should_still_fan_out_once_when_a_sibling_handler_fails_and_the_message_is_retried() {
        List<String> webhooks = IntStream.range(0, 2).mapToObj(i -> webhook(ORG, "[\"test.sibling_fails\"]", true)).toList();
        String messageId = Broker.newMessageId();
        broker.publish("test.sibling_fails", messageId, Broker.event("test.sibling_fails", ORG, "{\"failTimes\":1}"));

        await().atMost(Duration.ofSeconds(10)).until(() ->
                dev.hookfan.support.TestHandlers.FlakyHandler.CALLS.getOrDefault(messageId, List.of()).size() == 2);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> deliveries(messageId) == 2);
        assertEquals(webhooks.stream().map(w -> DeliveryIds.derive(messageId, w)).collect(Collectors.toSet()),
                Set.copyOf(RecordingDeliveryRequests.REQUESTED));
    }

    @Test
    void should_keep_one_row_per_webhook_when_twenty_copies_arrive_through_the_broker() {
        webhook(ORG, "[\"*\"]", true);
        webhook(ORG, "[\"*\"]", true);
        String messageId = Broker.newMessageId();
        String body = Broker.event("organization.member_removed", ORG, "{}");
        for (int i = 0; i < 20; i++) {
            broker.publish("organization.member_removed", messageId, body);
        }
        await().atMost(Duration.ofSeconds(15)).until(() -> deliveries(messageId) == 2 && broker.count(Broker.WORK_QUEUE) == 0);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> deliveries(messageId) == 2);
        assertEquals(0, broker.count(Broker.DLQ));
    }

    @Test
    void should_queue_a_test_delivery_with_a_random_id_to_one_webhook() {
        String id = webhook(ORG, "[\"a.b\"]", true);
        webhook(ORG, "[\"*\"]", true);
        String deliveryId = given().post("/organizations/{org}/webhooks/{id}/test", ORG, id).then().statusCode(202)
                .body("deliveryId", matchesPattern("[0-9a-f]{32}")).extract().path("deliveryId");
        assertEquals(1, Database.count("select count(*) from webhook_delivery where organization_id = ?", ORG));
        assertEquals(1, Database.count("select count(*) from webhook_delivery d join delivery_event e on e.id = d.event_id"
                + " where d.id = ? and d.webhook_id = ? and e.message_id is null and e.event_type = 'webhook.test'", deliveryId, id));
        given().post("/organizations/{org}/webhooks/{id}/test", "org_other", id).then().statusCode(404);
        assertTrue(RecordingDeliveryRequests.REQUESTED.contains(deliveryId));
    }

    /** Counts INSERT statements on a table, at PostgreSQL: a statement trigger fires even when no row is inserted. */
    record InsertStatements(String table) implements AutoCloseable {

        static InsertStatements into(String table) {
            Database.update("create table if not exists test_insert_statements (at timestamptz not null default now())");
            Database.update("truncate test_insert_statements");
            Database.update("create or replace function test_count_insert() returns trigger language plpgsql as $$ begin"
                    + " insert into test_insert_statements default values; return null; end $$");
            Database.update("create trigger test_count_insert after insert on " + table
                    + " for each statement execute function test_count_insert()");
            return new InsertStatements(table);
        }

        long count() {
            return Database.count("select count(*) from test_insert_statements");
        }

        @Override
        public void close() {
            Database.update("drop trigger if exists test_count_insert on " + table);
        }
    }
}
