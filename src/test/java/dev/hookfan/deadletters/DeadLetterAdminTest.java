package dev.hookfan.deadletters;

import dev.hookfan.deliveries.DeliveryIds;
import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import dev.hookfan.support.Rabbitmqctl;
import dev.hookfan.support.Webhooks;
import dev.hookfan.support.Receiver;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.util.KeyUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** After an outage longer than the retry schedule, an operator looks into the dead-letter queue and sends events back. */
@QuarkusTest
@TestProfile(DeadLetterAdminTest.Secured.class)
class DeadLetterAdminTest {

    public static class Secured implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("hookfan.auth.enabled", "true");
        }
    }

    static final String ORG = "org_dead";
    static final String LETTERS = "/admin/dead-letters";

    Broker broker;
    Receiver receiver;

    static final String LIMIT_POLICY = "hookfan-test-dead-letter-delivery-limit";

    @BeforeEach
    void start() {
        Database.reset();
        broker = Broker.connect();
        broker.purge(Broker.DLQ);
        receiver = Receiver.start();
    }

    @AfterEach
    void stop() {
        broker.deleteQueue(Broker.FORMER_DLQ);
        broker.purge(Broker.DLQ);
        broker.close();
        receiver.close();
    }

    String webhook(String path) {
        return Webhooks.create(given().header("Authorization", "Bearer " + token(ORG)), ORG, receiver.url(path));
    }

    static void redrive(String body, int expected) {
        admin().contentType(ContentType.JSON).body(body).post(LETTERS + "/redrive").then().statusCode(200).body("redriven", is(expected));
    }

    static String token(Object organizations, String... groups) {
        try {
            var builder = Jwt.issuer("https://hookfan.test").audience("hookfan").subject("operator").claim("org_id", organizations);
            if (groups.length > 0) {
                builder.groups(Set.of(groups));
            }
            return builder.expiresIn(Duration.ofMinutes(5)).sign(KeyUtils.readPrivateKey("test-jwt-private.pem"));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static RequestSpecification admin() {
        return given().header("Authorization", "Bearer " + token(List.of(), "hookfan-admin"));
    }

    @Test
    void should_answer_only_a_token_with_the_admin_role() {
        given().get(LETTERS).then().statusCode(401).contentType("application/problem+json");
        given().header("Authorization", "Bearer " + token(ORG)).get(LETTERS).then().statusCode(403)
                .contentType("application/problem+json");
        given().header("Authorization", "Bearer " + token(ORG)).contentType(ContentType.JSON).body("{\"all\":true}")
                .post(LETTERS + "/redrive").then().statusCode(403);
        admin().get(LETTERS).then().statusCode(200).body("items.size()", is(0));
    }

    @Test
    void should_list_dead_letters_in_order_without_taking_them() {
        List<String> ids = List.of(Broker.newMessageId(), Broker.newMessageId(), Broker.newMessageId());
        broker.deadLetter(ids.get(0), Broker.event("billing.entitlements_updated", ORG, "{}"), 6, "EntitlementsProjection: timeout");
        broker.deadLetter(ids.get(1), "{not json", 1, "malformed: body is not valid JSON");
        broker.deadLetter(ids.get(2), Broker.event("organization.member_removed", ORG, "{}"), 6, "WebhookFanOut: connection refused");

        for (int look = 0; look < 2; look++) {
            admin().get(LETTERS + "?limit=2").then().statusCode(200)
                    .body("items.messageId", equalTo(ids.subList(0, 2)))
                    .body("items[0].type", equalTo("billing.entitlements_updated"))
                    .body("items[0].organizationId", equalTo(ORG))
                    .body("items[0].attempts", is(6))
                    .body("items[0].error", equalTo("EntitlementsProjection: timeout"))
                    .body("items[0].deadLetteredAt", org.hamcrest.Matchers.notNullValue())
                    .body("items[1].type", org.hamcrest.Matchers.nullValue());
        }
        admin().get(LETTERS).then().body("items.messageId", equalTo(ids));
        assertEquals(3, broker.count(Broker.DLQ));
        admin().get(LETTERS + "?limit=0").then().statusCode(400).body("errors.field", hasItem("limit"));
    }

    @Test
    void should_send_chosen_dead_letters_back_to_be_handled_and_leave_the_rest_in_order() {
        String webhookId = webhook("/back");
        List<String> ids = List.of(Broker.newMessageId(), Broker.newMessageId(), Broker.newMessageId(), Broker.newMessageId());
        broker.deadLetter(ids.get(0), Broker.event("a.b", ORG, "{\"n\":0}"), 6, "down");
        broker.deadLetter(ids.get(1), Broker.event("a.b", ORG, "{\"n\":1}"), 6, "down");
        broker.deadLetter(ids.get(2), Broker.event("c.d", ORG, "{\"n\":2}"), 6, "down");
        broker.deadLetter(ids.get(3), Broker.event("a.b", ORG, "{\"n\":3}"), 6, "down");

        admin().contentType(ContentType.JSON).body("{\"messageIds\":[\"" + ids.get(1) + "\"]}").post(LETTERS + "/redrive")
                .then().statusCode(200).body("redriven", is(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/back").size() == 1);
        assertEquals(DeliveryIds.derive(ids.get(1), webhookId), receiver.requests("/back").get(0).header("webhook-id"));
        admin().get(LETTERS).then().body("items.messageId", equalTo(List.of(ids.get(0), ids.get(2), ids.get(3))));

        admin().contentType(ContentType.JSON).body("{\"all\":true,\"eventType\":\"a.b\"}").post(LETTERS + "/redrive")
                .then().statusCode(200).body("redriven", is(2));
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/back").size() == 3);
        admin().get(LETTERS).then().body("items.messageId", equalTo(List.of(ids.get(2))));
        // Each event sent back was handled: one delivery each.
        assertEquals(3, Database.count("select count(*) from webhook_delivery where webhook_id = ?", webhookId));

        admin().contentType(ContentType.JSON).body("{}").post(LETTERS + "/redrive").then().statusCode(400)
                .body("errors.field", hasItem("messageIds"));
        admin().contentType(ContentType.JSON).body("{\"all\":true,\"messageIds\":[\"x\"]}").post(LETTERS + "/redrive")
                .then().statusCode(400).body("errors.field", hasItem("messageIds"));
        // A null filter is refused, not read as no filter: it must not widen a redrive to every event type.
        admin().contentType(ContentType.JSON).body("{\"all\":true,\"eventType\":null}").post(LETTERS + "/redrive")
                .then().statusCode(400).body("errors.field", hasItem("eventType"));
        admin().get(LETTERS).then().body("items.messageId", equalTo(List.of(ids.get(2))));
        admin().contentType(ContentType.JSON).body("{\"messageIds\":\"x\",\"all\":\"yes\",\"eventType\":\" \",\"colour\":1}")
                .post(LETTERS + "/redrive").then().statusCode(400)
                .body("errors.field", org.hamcrest.Matchers.containsInAnyOrder("messageIds", "all", "eventType", "colour"));
    }

    /** The message ids a look answers, compared in order; a mismatch names the first position that differs. */
    static void assertLook(List<String> expected, int limit) {
        List<String> seen = admin().get(LETTERS + "?limit=" + limit).then().statusCode(200).extract().path("items.messageId");
        for (int at = 0; at < Math.max(expected.size(), seen.size()); at++) {
            String want = at < expected.size() ? expected.get(at) : "(nothing)";
            String got = at < seen.size() ? seen.get(at) : "(nothing)";
            assertEquals(want, got, "dead letter at position " + at + " of " + expected.size());
        }
    }

    @Test
    void should_keep_every_dead_letter_in_its_place_however_often_they_are_looked_at() {
        // On the former quorum DLQ a look of more than a few letters gave them back out of order.
        webhook("/looked");
        List<String> ids = new java.util.ArrayList<>();
        for (int n = 0; n < 100; n++) {
            ids.add(Broker.newMessageId());
            broker.deadLetter(ids.get(n), Broker.event("a.b", ORG, "{\"n\":" + n + "}"), 6, "down");
        }

        for (int look = 0; look < 7; look++) {
            assertLook(ids, 1000);
            assertLook(ids.subList(0, 1), 1);
        }
        redrive("{\"messageIds\":[\"" + ids.get(1) + "\",\"" + ids.get(50) + "\"]}", 2);
        List<String> rest = new java.util.ArrayList<>(ids);
        rest.remove(50);
        rest.remove(1);
        for (int look = 0; look < 7; look++) {
            assertLook(rest, 1000);
        }
        redrive("{\"all\":true}", 98);

        await().atMost(Duration.ofSeconds(20)).until(() -> receiver.requests("/looked").size() == 100);
        assertEquals(0, broker.count(Broker.DLQ));
        assertEquals(100, Database.count("select count(*) from webhook_delivery"));
    }

    @Test
    void should_lose_no_dead_letter_however_often_they_are_looked_at_under_a_delivery_limit() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Rabbitmqctl.usable(),
                "skipped: setting a policy takes rabbitmqctl, as root or with passwordless sudo (README, Tests)");
        // Both names: on the former quorum DLQ each look counted toward this limit, and the fourth look found nothing.
        Rabbitmqctl.setPolicy(LIMIT_POLICY, "^hookfan\\.integration-events\\.(dlq|dead-letters)$", "{\"delivery-limit\":3}");
        try {
            webhook("/limited");
            List<String> ids = List.of(Broker.newMessageId(), Broker.newMessageId(), Broker.newMessageId(), Broker.newMessageId());
            for (int n = 0; n < ids.size(); n++) {
                broker.deadLetter(ids.get(n), Broker.event("a.b", ORG, "{\"n\":" + n + "}"), 6, "down");
            }

            for (int look = 0; look < 7; look++) {
                assertLook(ids, 10);
            }
            redrive("{\"messageIds\":[\"" + ids.get(1) + "\"]}", 1);
            for (int look = 0; look < 7; look++) {
                assertLook(List.of(ids.get(0), ids.get(2), ids.get(3)), 10);
            }
            redrive("{\"all\":true}", 3);

            await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/limited").size() == 4);
            assertEquals(0, broker.count(Broker.DLQ));
        } finally {
            Rabbitmqctl.clearPolicy(LIMIT_POLICY);
        }
    }

    @Test
    void should_move_the_letters_of_the_former_quorum_dead_letter_queue_in_order() throws Exception {
        String webhookId = webhook("/moved");
        String kept = Broker.newMessageId();
        broker.deadLetter(kept, Broker.event("a.b", ORG, "{}"), 6, "down");
        broker.declareFormerDeadLetterQueue();
        // Looked at by an earlier release: each letter carries a delivery count, and their order is the quorum queue's.
        Set<String> looked = Set.of(Broker.newMessageId(), Broker.newMessageId(), Broker.newMessageId());
        looked.forEach(id -> broker.deadLetterInto(Broker.FORMER_DLQ, id, Broker.event("a.b", ORG, "{}"), 6, "looked at"));
        assertEquals(3, broker.drainAndReturn(Broker.FORMER_DLQ));
        assertLook(List.of(kept), 1);
        assertEquals(0, broker.count(Broker.FORMER_DLQ));

        // An instance of the earlier release dead-letters more during the upgrade. While another instance moves them
        // (it holds the lock), a look does not take part: the letters stay where they are, in order.
        List<String> former = new java.util.ArrayList<>();
        for (int n = 0; n < 300; n++) {
            former.add(Broker.newMessageId());
            broker.deadLetterInto(Broker.FORMER_DLQ, former.get(n), n % 100 == 7 ? "{not json" : Broker.event("a.b", ORG, "{\"n\":" + n + "}"),
                    6, "down " + n);
        }
        try (AutoCloseable moving = broker.holdExclusiveQueue(Broker.FORMER_DLQ + ".moving")) {
            assertLook(List.of(kept), 1);
            assertEquals(300, broker.count(Broker.FORMER_DLQ));
        }
        assertLook(List.of(kept), 1);
        // Emptied, not deleted: a quorum queue cannot be deleted only if empty, and an old instance may still write to it.
        assertEquals(0, broker.count(Broker.FORMER_DLQ));
        List<String> all = admin().get(LETTERS + "?limit=1000").then().statusCode(200)
                .body("items[4].error", equalTo("down 0"))
                .body("items[11].type", org.hamcrest.Matchers.nullValue())
                .extract().path("items.messageId");
        assertEquals(kept, all.get(0));
        assertEquals(looked, Set.copyOf(all.subList(1, 4)));
        List<String> expected = new java.util.ArrayList<>(all.subList(0, 4));
        expected.addAll(former);
        assertLook(expected, 1000);

        redrive("{\"messageIds\":[\"" + former.get(0) + "\",\"" + former.get(299) + "\"]}", 2);
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/moved").size() == 2);
        assertEquals(Set.of(DeliveryIds.derive(former.get(0), webhookId), DeliveryIds.derive(former.get(299), webhookId)),
                Set.of(receiver.requests("/moved").get(0).header("webhook-id"), receiver.requests("/moved").get(1).header("webhook-id")));
        List<com.rabbitmq.client.GetResponse> left = broker.drain(Broker.DLQ);
        assertEquals(302, left.size());
        assertEquals(0, left.stream().filter(letter -> letter.getProps().getHeaders().containsKey("x-delivery-count")).count());
    }

    @Test
    void should_name_what_the_broker_dead_lettered_by_its_reason_and_queue() {
        String id = Broker.newMessageId();
        broker.deadLetterByTheBroker(id, Broker.event("a.b", ORG, "{}"), "delivery_limit", Broker.WORK_QUEUE);
        admin().get(LETTERS).then().statusCode(200)
                .body("items[0].messageId", equalTo(id))
                .body("items[0].error", equalTo("dead-lettered by RabbitMQ: delivery_limit in " + Broker.WORK_QUEUE));
    }
}
