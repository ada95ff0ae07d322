package dev.hookfan.sending;

import dev.hookfan.deliveries.RequestedDelivery;
import dev.hookfan.support.Broker;
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
 * The fast path: every delivery a request message names is sent, beyond the send permits too; one whose webhook was
 * disabled since is left pending and unleased.
 */
@QuarkusTest
class RequestedDeliveriesTest extends SenderTestSupport {

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
}
