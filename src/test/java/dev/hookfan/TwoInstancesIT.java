package dev.hookfan;

import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import dev.hookfan.support.Instance;
import dev.hookfan.support.Receiver;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Two packaged instances on one queue and one database: every event fanned out once, every delivery sent once. */
@QuarkusIntegrationTest
class TwoInstancesIT {

    static final String ORG = "org_replicas";
    static final int EVENTS = 300;
    static final int REPUBLISHED = 100;

    Receiver receiver;
    Broker broker;
    Instance second;

    @BeforeEach
    void start() {
        Database.reset();
        receiver = Receiver.start();
        broker = Broker.connect();
        second = new Instance("second-instance", Map.of()).start();
    }

    @AfterEach
    void stop() {
        second.close();
        receiver.close();
        broker.close();
    }

    @Test
    void an_upgraded_instance_moves_the_dead_letters_of_the_former_quorum_queue_at_start_in_order() {
        second.close();
        broker.purge(Broker.DLQ);
        broker.declareFormerDeadLetterQueue();
        List<String> letters = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            letters.add(Broker.newMessageId());
            broker.deadLetterInto(Broker.FORMER_DLQ, letters.get(i), Broker.event("a.b", ORG, "{\"n\":" + i + "}"), 6, "down");
        }
        second = new Instance("upgraded-instance", Map.of()).start();
        await().atMost(Duration.ofSeconds(30)).until(() -> broker.count(Broker.DLQ) == 50);
        List<String> moved = broker.drain(Broker.DLQ).stream().map(letter -> letter.getProps().getMessageId()).toList();
        assertEquals(letters, moved);
        assertEquals(0, broker.count(Broker.FORMER_DLQ));
        broker.deleteQueue(Broker.FORMER_DLQ);
    }

    @Test
    void should_fan_out_every_event_once_and_send_every_delivery_once_across_two_instances() throws Exception {
        for (int i = 0; i < 2; i++) {
            given().contentType(ContentType.JSON).body("{\"url\":\"" + receiver.url("/replicas") + "\",\"eventTypes\":[\"*\"]}")
                    .post("/organizations/{org}/webhooks", ORG).then().statusCode(201);
        }
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < EVENTS; i++) {
            String id = Broker.newMessageId();
            ids.add(id);
            broker.publish("organization.member_removed", id, Broker.event("organization.member_removed", ORG, "{\"n\":" + i + "}"));
        }
        for (int i = 0; i < REPUBLISHED; i++) {
            broker.publish("organization.member_removed", ids.get(i), Broker.event("organization.member_removed", ORG, "{\"n\":" + i + "}"));
        }

        int deliveries = 2 * EVENTS;
        await().atMost(Duration.ofSeconds(90)).until(() -> Database.count(
                "select count(*) from webhook_delivery where organization_id = ? and status = 'delivered'", ORG) == deliveries);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> receiver.requests("/replicas").size() == deliveries);
        assertEquals(deliveries, Database.count("select count(*) from webhook_delivery where organization_id = ?", ORG));
        List<String> sent = receiver.requests("/replicas").stream().map(r -> r.header("webhook-id")).toList();
        assertEquals(deliveries, new HashSet<>(sent).size(), "a delivery was sent twice");

        double consumedBySecond = consumed(second.get("/q/metrics"));
        assertTrue(consumedBySecond > 0 && consumedBySecond < EVENTS + REPUBLISHED,
                "the second instance consumed " + consumedBySecond + " of " + (EVENTS + REPUBLISHED));
    }

    private static double consumed(String metrics) {
        Matcher matcher = Pattern.compile("(?m)^hookfan_events_consumed_total\\{[^}]*type=\"organization.member_removed\"[^}]*} ([0-9.eE+]+)$")
                .matcher(metrics);
        return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
    }
}
