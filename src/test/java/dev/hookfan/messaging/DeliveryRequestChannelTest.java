package dev.hookfan.messaging;

import dev.hookfan.support.Database;
import dev.hookfan.support.Receiver;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.smallrye.reactive.messaging.memory.InMemoryConnector;
import jakarta.enterprise.inject.Any;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The delivery-request consumer fed through SmallRye's in-memory connector, no broker in between: what each form of
 * request makes the sender do, and that every request is acked, readable or not. The rows it names are written
 * fresh (not due), so neither the poller nor the sweep sends them: a POST comes from the request or not at all.
 */
@QuarkusTest
@TestProfile(InMemoryChannels.class)
class DeliveryRequestChannelTest {

    static final String ORG = "org_requests";

    @Inject
    @Any
    InMemoryConnector connector;

    Receiver receiver;
    String webhookId;
    final Settlements settled = new Settlements();

    @BeforeEach
    void start() {
        Database.reset();
        receiver = Receiver.start();
        webhookId = given().contentType(ContentType.JSON)
                .body("{\"url\":\"" + receiver.url("/requests") + "\",\"eventTypes\":[\"*\"]}")
                .post("/organizations/{org}/webhooks", ORG).then().statusCode(201).extract().path("id");
    }

    @AfterEach
    void stop() {
        receiver.close();
    }

    @Test
    void should_send_the_deliveries_a_request_names_with_their_webhooks_and_ack_it() {
        List<String> ids = List.of(freshRow(), freshRow());

        send("{\"type\":\"webhook.delivery_requested\",\"deliveries\":[" + named(ids.get(0)) + "," + named(ids.get(1)) + "]}");

        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/requests").size() == 2);
        assertEquals(ids.stream().sorted().toList(),
                receiver.requests("/requests").stream().map(request -> request.header("webhook-id")).sorted().toList());
        await().atMost(Duration.ofSeconds(5)).until(() -> settled.acked.get() == 1);
    }

    @Test
    void should_ack_an_unreadable_or_empty_request_and_go_on_with_the_next() {
        String id = freshRow();

        send("not json {");
        send("{\"deliveries\":[{\"id\":\"no webhook named\"}]}");
        send("{\"deliveries\":[" + named(id) + "]}");

        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/requests").size() == 1);
        await().atMost(Duration.ofSeconds(5)).until(() -> settled.acked.get() == 3);
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> receiver.requests("/requests").size() == 1);
        assertEquals(0, settled.nacked.get());
    }

    @Test
    void should_ack_a_request_for_a_delivery_already_sent_without_sending_it_again() {
        String id = freshRow();
        send("{\"deliveries\":[" + named(id) + "]}");
        await().atMost(Duration.ofSeconds(10)).until(() -> Database.count(
                "select count(*) from webhook_delivery where id = ? and status = 'delivered'", id) == 1);

        send("{\"deliveries\":[" + named(id) + "]}");

        await().atMost(Duration.ofSeconds(5)).until(() -> settled.acked.get() == 2);
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> receiver.requests("/requests").size() == 1);
    }

    @Test
    void should_leave_a_request_unread_while_the_instance_has_no_room_and_take_it_once_a_send_ends() {
        receiver.slow("/requests", 1500);
        String first = freshRow();
        String second = freshRow();
        send("{\"deliveries\":[" + named(first) + "]}");
        // Queued and started: its send holds the instance's one room until its subscriber answers.
        await().atMost(Duration.ofSeconds(5)).until(() -> settled.acked.get() == 1);

        send("{\"deliveries\":[" + named(second) + "]}");

        await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(1)).until(() -> settled.acked.get() == 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> settled.acked.get() == 2);
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/requests").size() == 2);
        assertEquals(List.of(first, second), receiver.requests("/requests").stream().map(request -> request.header("webhook-id")).toList());
    }

    private void send(String body) {
        connector.source(ConsumerStart.DELIVERIES).send(settled.message(body, Metadata.empty()));
    }

    private String named(String id) {
        return "{\"id\":\"" + id + "\",\"webhookId\":\"" + webhookId + "\",\"organizationId\":\"" + ORG + "\"}";
    }

    /** A pending row as a fan-out writes it, not yet due: only a request sends it. */
    private String freshRow() {
        String id = UUID.randomUUID().toString().replace("-", "");
        Database.pendingDelivery(id, webhookId, ORG, "null");
        return id;
    }
}
