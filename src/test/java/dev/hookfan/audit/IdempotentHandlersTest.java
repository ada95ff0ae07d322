package dev.hookfan.audit;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hookfan.deliveries.DeliveryIds;
import dev.hookfan.events.IntegrationEvent;
import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import dev.hookfan.support.Dispatch;
import dev.hookfan.support.Pages;
import dev.hookfan.support.Statements;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
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
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
class IdempotentHandlersTest {

    static final String ORG = "org_handlers";

    @Inject
    AuditEntryRecorder recorder;

    @Inject
    Dispatch dispatch;

    Broker broker;

    @BeforeEach
    void reset() {
        Database.reset();
        broker = Broker.connect();
        broker.purge(Broker.DLQ);
    }

    @AfterEach
    void close() {
        Database.update("drop trigger if exists audit_fault on audit_entry");
        broker.close();
    }

    static long auditEntries(String messageId) {
        return Database.count("select count(*) from audit_entry where source_message_id = ?", messageId);
    }

    static String entitlements(String updatedAt, int maxWebhooks) {
        return Broker.event("billing.entitlements_updated", ORG,
                "{\"updatedAt\":\"" + updatedAt + "\",\"limits\":{\"maxWebhooks\":" + maxWebhooks + "}}");
    }

    @Test
    void should_page_audit_entries_in_recorded_order_without_duplicates_or_gaps_when_they_share_an_instant() {
        OffsetDateTime instant = OffsetDateTime.parse("2026-12-02T10:00:00Z");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            OffsetDateTime at = i < 7 ? instant : instant.plusSeconds(i);
            String id = DeliveryIds.derive("m_" + i, "audit");
            insertEntry(id, ORG, "m_" + i, at);
            insertEntry(DeliveryIds.derive("m_" + i, "audit-other"), "org_other", "m_" + i, at);
            expected.add(id);
        }
        expected.subList(0, 7).sort(null);

        Pages.Walked walked = Pages.walk(3, "/organizations/{org}/audit-entries", ORG);
        assertEquals(expected, walked.ids());
        assertEquals(3, walked.pages());
    }

    static void insertEntry(String id, String organizationId, String messageId, OffsetDateTime recordedAt) {
        Database.update("insert into audit_entry (id, organization_id, source_message_id, event_type, recorded_at, data)"
                + " values (?, ?, ?, 'organization.member_removed', ?, '{}')", id, organizationId, messageId, recordedAt);
    }

    @Test
    void should_record_one_audit_entry_when_the_same_message_comes_twice() {
        String messageId = Broker.newMessageId();
        String body = Broker.event("organization.member_removed", ORG, "{\"memberId\":\"m_9\"}");
        broker.publish("organization.member_removed", messageId, body);
        broker.publish("organization.member_removed", messageId, body);

        await().atMost(Duration.ofSeconds(10)).until(() -> auditEntries(messageId) == 1 && broker.count(Broker.WORK_QUEUE) == 0);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> auditEntries(messageId) == 1);
        given().get("/organizations/{org}/audit-entries", ORG).then().statusCode(200)
                .body("items.size()", is(1))
                .body("items[0].sourceMessageId", equalTo(messageId))
                .body("items[0].eventType", equalTo("organization.member_removed"))
                .body("items[0].data.memberId", equalTo("m_9"));
        given().queryParam("type", "billing.entitlements_updated").get("/organizations/{org}/audit-entries", ORG)
                .then().body("items.size()", is(0));
        given().get("/organizations/{org}/audit-entries", "org_other").then().body("items.size()", is(0));
        given().queryParam("since", "yesterday").get("/organizations/{org}/audit-entries", ORG)
                .then().statusCode(400).body("errors[0].field", equalTo("since"));
    }

    @Test
    void should_only_look_the_entry_up_when_a_recorded_message_is_handled_again() {
        String messageId = Broker.newMessageId();
        IntegrationEvent event = new IntegrationEvent("organization.member_removed", ORG, Instant.now(),
                JsonNodeFactory.instance.objectNode().put("memberId", "m_7"));
        dispatch.run(recorder, messageId, event);
        assertEquals(1, auditEntries(messageId));

        Statements statements = Statements.countedFromNow();
        dispatch.run(recorder, messageId, event);
        // Counted at PostgreSQL: one lookup, no transaction, no insert.
        assertEquals(1, statements.calls("select%from audit_entry%"));
        assertEquals(1, statements.selects(), statements.ran());
        assertEquals(0, statements.calls("begin%"));
        assertEquals(0, statements.calls("insert%"));
        assertEquals(1, auditEntries(messageId));
    }

    @Test
    void should_add_nothing_when_another_writer_commits_the_entry_after_the_lookup_missed_it() throws Exception {
        String messageId = Broker.newMessageId();
        IntegrationEvent event = new IntegrationEvent("organization.member_removed", ORG, Instant.now(),
                JsonNodeFactory.instance.objectNode().put("memberId", "m_8"));
        Statements statements = Statements.countedFromNow();

        java.util.concurrent.CompletableFuture<Void> recorded;
        // Not committed yet: the lookup misses it, and the insert waits on its key.
        try (AutoCloseable otherWriter = Database.committingOnClose("insert into audit_entry (id, organization_id,"
                + " source_message_id, event_type, recorded_at, data) values ('theirs', ?, ?, 'organization.member_removed',"
                + " now(), '{}')", ORG, messageId)) {
            recorded = dispatch.start(recorder, messageId, event);
            await().atMost(Duration.ofSeconds(10)).until(() -> Database.waitingForALock("insert into audit_entry%") == 1);
        }
        recorded.get(10, java.util.concurrent.TimeUnit.SECONDS);

        assertEquals(1, auditEntries(messageId));
        assertEquals(1, Database.count("select count(*) from audit_entry where source_message_id = ? and id = 'theirs'", messageId));
        // The plain insert met the committed key and failed whole; the one that skips conflicts ran after it.
        assertEquals(1, statements.calls("insert into audit_entry%on conflict%"), statements.ran());
    }

    @Test
    void should_fail_loudly_when_recording_outside_a_consumer() {
        IntegrationEvent event = new IntegrationEvent("organization.member_removed", ORG, Instant.now(),
                JsonNodeFactory.instance.objectNode());
        IllegalStateException failure = assertThrows(IllegalStateException.class, () -> dispatch.run(recorder, null, event));
        assertTrue(failure.getMessage().contains("organization.member_removed"), failure.getMessage());
        assertEquals(0, Database.count("select count(*) from audit_entry"));
    }

    @Test
    void should_keep_the_newest_entitlements_when_an_older_event_arrives_later() {
        broker.publish("billing.entitlements_updated", Broker.newMessageId(), entitlements("2026-12-02T10:00:00Z", 10));
        await().atMost(Duration.ofSeconds(10)).until(() ->
                Database.count("select count(*) from organization_entitlements where max_webhooks = 10") == 1);
        String older = Broker.newMessageId();
        broker.publish("billing.entitlements_updated", older, entitlements("2026-12-02T09:00:00Z", 3));
        await().atMost(Duration.ofSeconds(10)).until(() -> auditEntries(older) == 1);

        given().get("/organizations/{org}/entitlements", ORG).then().statusCode(200)
                .body("limits.maxWebhooks", is(10)).body("updatedAt", equalTo("2026-12-02T10:00:00Z"));
    }

    @Test
    void should_leave_the_same_row_when_one_entitlements_event_is_applied_twice() {
        String messageId = Broker.newMessageId();
        broker.publish("billing.entitlements_updated", messageId, entitlements("2026-12-02T10:00:00Z", 4));
        await().atMost(Duration.ofSeconds(10)).until(() -> auditEntries(messageId) == 1);
        List<List<Object>> first = Database.query("select organization_id, limits, max_webhooks, updated_at, received_at"
                + " from organization_entitlements");
        broker.publish("billing.entitlements_updated", Broker.newMessageId(), entitlements("2026-12-02T10:00:00Z", 4));
        await().atMost(Duration.ofSeconds(10)).until(() -> Database.count("select count(*) from audit_entry") == 2);
        assertEquals(first, Database.query("select organization_id, limits, max_webhooks, updated_at, received_at"
                + " from organization_entitlements"));
    }

    @Test
    void should_enforce_the_entitled_webhook_limit_on_the_next_create() {
        given().get("/organizations/{org}/entitlements", ORG).then().statusCode(200)
                .body("limits.maxWebhooks", is(100)).body("updatedAt", nullValue());
        broker.publish("billing.entitlements_updated", Broker.newMessageId(), entitlements("2026-12-02T10:00:00Z", 1));
        await().atMost(Duration.ofSeconds(10)).until(() ->
                Database.count("select count(*) from organization_entitlements where max_webhooks = 1") == 1);

        String body = "{\"url\":\"http://127.0.0.1:9/h\",\"eventTypes\":[\"*\"]}";
        given().contentType(ContentType.JSON).body(body).post("/organizations/{org}/webhooks", ORG).then().statusCode(201);
        given().contentType(ContentType.JSON).body(body).post("/organizations/{org}/webhooks", ORG).then().statusCode(409)
                .body("type", equalTo("https://hookfan.dev/problems/webhook-limit-reached"));
    }

    @Test
    void should_dead_letter_entitlements_without_updated_at_at_once() {
        String messageId = Broker.newMessageId();
        broker.publish("billing.entitlements_updated", messageId,
                Broker.event("billing.entitlements_updated", ORG, "{\"limits\":{}}"));
        await().atMost(Duration.ofSeconds(10)).until(() -> broker.count(Broker.DLQ) == 1);
        var dead = broker.drain(Broker.DLQ).get(0);
        assertEquals(1, ((Number) dead.getProps().getHeaders().get("hookfan-attempts")).intValue());
        assertTrue(dead.getProps().getHeaders().get("hookfan-error").toString().contains("updatedAt"));
    }

    @Test
    void should_fan_out_once_when_the_audit_handler_fails_and_the_message_is_retried() {
        // A real database fault: the first audit insert of this event type fails, the retry goes through.
        Database.update("drop sequence if exists audit_fault_seq");
        Database.update("create sequence audit_fault_seq");
        Database.update("create or replace function audit_fault() returns trigger language plpgsql as $$ begin"
                + " if new.event_type = 'test.audit_fault' and nextval('audit_fault_seq') = 1 then"
                + " raise exception 'injected audit fault'; end if; return new; end $$");
        Database.update("create trigger audit_fault before insert on audit_entry for each row execute function audit_fault()");
        List<String> webhooks = IntStream.range(0, 3).mapToObj(i -> given().contentType(ContentType.JSON)
                .body("{\"url\":\"http://127.0.0.1:9/h\",\"eventTypes\":[\"test.audit_fault\"]}")
                .post("/organizations/{org}/webhooks", ORG).then().statusCode(201).extract().<String>path("id")).toList();
        String messageId = Broker.newMessageId();
        broker.publish("test.audit_fault", messageId, Broker.event("test.audit_fault", ORG, "{}"));

        await().atMost(Duration.ofSeconds(10)).until(() -> auditEntries(messageId) == 1);
        assertTrue(Database.count("select last_value from audit_fault_seq") >= 2, "the audit handler ran again");
        assertEquals(webhooks.stream().map(w -> DeliveryIds.derive(messageId, w)).collect(Collectors.toSet()),
                Set.copyOf(Database.query("select id from webhook_delivery where event_id in (select id from delivery_event where message_id = ?)", messageId)
                        .stream().map(row -> (String) row.get(0)).toList()));
        assertEquals(0, broker.count(Broker.DLQ));
    }
}
