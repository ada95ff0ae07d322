package dev.hookfan;

import com.standardwebhooks.Webhook;
import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import dev.hookfan.support.Receiver;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The main flows against the packaged application (fast-jar here; a native executable where one can be built). */
@QuarkusIntegrationTest
class HookfanIT {

    static final String ORG = "org_it";

    Receiver receiver;
    Broker broker;

    @BeforeEach
    void start() {
        Database.reset();
        receiver = Receiver.start();
        broker = Broker.connect();
        broker.purge(Broker.DLQ);
    }

    @AfterEach
    void stop() {
        receiver.close();
        broker.close();
    }

    @Test
    void should_deliver_a_published_event_signed_once_and_add_nothing_on_replay() {
        Response created = given().contentType(ContentType.JSON)
                .body("{\"url\":\"" + receiver.url("/it") + "\",\"eventTypes\":[\"organization.member_removed\"]}")
                .post("/organizations/{org}/webhooks", ORG).then().statusCode(201).extract().response();
        String secret = created.path("secret");
        String messageId = Broker.newMessageId();
        String body = Broker.event("organization.member_removed", ORG, "{\"memberId\":\"m_1\"}");

        broker.publish("organization.member_removed", messageId, body);
        await().atMost(Duration.ofSeconds(15)).until(() -> receiver.requests("/it").size() == 1);
        Receiver.Request request = receiver.requests("/it").get(0);
        Map<String, List<String>> headers = request.headers().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> List.of(e.getValue())));
        assertDoesNotThrow(() -> new Webhook(secret).verify(request.body(), headers));
        assertEquals(messageId, request.header("hookfan-message-id"));

        broker.publish("organization.member_removed", messageId, body);
        await().atMost(Duration.ofSeconds(10)).until(() -> broker.count(Broker.WORK_QUEUE) == 0);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> receiver.requests("/it").size() == 1);
        assertEquals(1, Database.count("select count(*) from webhook_delivery where event_id in (select id from delivery_event where message_id = ?)", messageId));
    }

    @Test
    void should_dead_letter_a_poison_message_with_its_reason() {
        String messageId = Broker.newMessageId();
        broker.publish("organization.member_removed", messageId, "{\"organizationId\":\"org_it\"}");
        await().atMost(Duration.ofSeconds(10)).until(() -> broker.count(Broker.DLQ) == 1);
        var dead = broker.drain(Broker.DLQ).get(0);
        assertEquals(messageId, dead.getProps().getMessageId());
        assertTrue(dead.getProps().getHeaders().get("hookfan-error").toString().contains("'type' is required"));
    }
}
