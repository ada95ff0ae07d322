package dev.hookfan.sending;

import com.standardwebhooks.Webhook;
import dev.hookfan.deliveries.DeliveryIds;
import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import dev.hookfan.support.Receiver.Request;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A delivery as the subscriber receives it: sent once, signed so that the reference library verifies it, with the
 * secrets in force (both during a rotation, one an operator replaced by hand), and the publisher's traceparent.
 */
@QuarkusTest
class SignedDeliveryTest extends SenderTestSupport {

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
    void should_pass_the_publishers_traceparent_to_the_subscriber_unchanged_with_tracing_off() {
        webhook("/traced");
        String traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        broker.publish("a.b", Broker.newMessageId(), Broker.event("a.b", ORG, "{}").getBytes(java.nio.charset.StandardCharsets.UTF_8),
                Map.of("traceparent", traceparent));

        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/traced").size() == 1);
        assertEquals(traceparent, receiver.requests("/traced").get(0).header("traceparent"));
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
}
