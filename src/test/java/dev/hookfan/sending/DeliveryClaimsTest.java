package dev.hookfan.sending;

import dev.hookfan.deliveries.RequestedDelivery;
import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import dev.hookfan.support.Statements;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Claims: one attempt is sent once however many starts race for it, claims share statements, and a claim finds its
 * rows through the primary key whatever the statistics say.
 */
@QuarkusTest
class DeliveryClaimsTest extends SenderTestSupport {

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
}
