package dev.hookfan.deadletters;

import dev.hookfan.deliveries.DeliveryIds;
import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
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

    @BeforeEach
    void start() {
        Database.reset();
        broker = Broker.connect();
        broker.purge(Broker.DLQ);
        receiver = Receiver.start();
    }

    @AfterEach
    void stop() {
        broker.purge(Broker.DLQ);
        broker.close();
        receiver.close();
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
        String webhookId = given().header("Authorization", "Bearer " + token(ORG)).contentType(ContentType.JSON)
                .body("{\"url\":\"" + receiver.url("/back") + "\",\"eventTypes\":[\"*\"]}")
                .post("/organizations/{org}/webhooks", ORG).then().statusCode(201).extract().path("id");
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
    }
}
