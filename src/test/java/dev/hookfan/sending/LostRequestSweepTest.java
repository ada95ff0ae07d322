package dev.hookfan.sending;

import dev.hookfan.support.Webhooks;
import dev.hookfan.support.Database;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The sweep on its own (an ingest-only instance, whose poller sweeps nothing meanwhile): the oldest due sweep rows
 * whose deliveries fit the budget are taken, their unsent deliveries become due, and the other rows stay as they are.
 */
@QuarkusTest
@TestProfile(IngestOnlyInstanceTest.IngestOnly.class)
class LostRequestSweepTest {

    static final String ORG = "org_sweep";

    @Inject
    LostRequestSweep sweep;

    List<String> ids;

    @BeforeEach
    void start() {
        Database.reset();
        // A webhook of its own (the orphan sweep would cancel the due deliveries of one that does not exist).
        String webhookId = Webhooks.create(ORG, "http://127.0.0.1:9/hook", "\"enabled\":false");
        ids = IntStream.range(0, 10).mapToObj(i -> String.format("d_swept_%02d", i)).toList();
        ids.forEach(id -> Database.pendingDelivery(id, webhookId, ORG, "null"));
        // Two fan-outs of five, the older first.
        Database.update("insert into delivery_sweep (delivery_ids, due_at) values (?::varchar[], now() - interval '1 minute')",
                "{" + String.join(",", ids.subList(0, 5)) + "}");
        Database.update("insert into delivery_sweep (delivery_ids, due_at) values (?::varchar[], now())",
                "{" + String.join(",", ids.subList(5, 10)) + "}");
    }

    @Test
    void should_sweep_the_oldest_rows_within_the_budget_and_leave_the_others_as_they_are() {
        sweep.makeDue(100, 4).await().atMost(Duration.ofSeconds(10));

        // The first row always (a budget smaller than one fan-out still makes progress), the next one not.
        assertEquals(ids.subList(0, 5), Database.query("select id from webhook_delivery where next_attempt_at is not null"
                + " order by id").stream().map(row -> row.get(0)).toList());
        assertEquals(1, Database.count("select count(*) from delivery_sweep where delivery_ids = ?::varchar[]",
                "{" + String.join(",", ids.subList(5, 10)) + "}"));

        sweep.makeDue(100, 100).await().atMost(Duration.ofSeconds(10));

        assertEquals(10, Database.count("select count(*) from webhook_delivery where next_attempt_at is not null"));
        assertEquals(0, Database.count("select count(*) from delivery_sweep"));
    }

    @Test
    void should_leave_sent_and_already_due_deliveries_as_they_are() {
        Database.update("update webhook_delivery set status = 'delivered' where id = ?", ids.get(0));
        Database.update("update webhook_delivery set next_attempt_at = now() + interval '1 hour' where id = ?", ids.get(1));

        sweep.makeDue(100, 100).await().atMost(Duration.ofSeconds(10));

        assertEquals(List.of(List.of(ids.get(0), "delivered", false), List.of(ids.get(1), "pending", true)),
                Database.query("select id, status, coalesce(next_attempt_at > now() + interval '30 minutes', false) from webhook_delivery"
                        + " where id in (?, ?) order by id", ids.get(0), ids.get(1)));
        assertEquals(8, Database.count("select count(*) from webhook_delivery where next_attempt_at <= now()"));
        assertEquals(0, Database.count("select count(*) from delivery_sweep"));
    }
}
