package dev.hookfan.sending;

import dev.hookfan.deliveries.DeliveryIds;
import dev.hookfan.support.Database;
import dev.hookfan.support.Receiver.Request;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A redelivery sends the same delivery again, with the same id and body, and never writes over a success.
 */
@QuarkusTest
class RedeliveryTest extends SenderTestSupport {

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
}
