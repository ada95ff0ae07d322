package dev.hookfan.sending;

import dev.hookfan.support.Database;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The poller's sweep sends what a lost delivery request would have, once its sweep row is due, and steps past a
 * delivery another transaction holds.
 */
@QuarkusTest
class SweptDeliveriesTest extends SenderTestSupport {

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
}
