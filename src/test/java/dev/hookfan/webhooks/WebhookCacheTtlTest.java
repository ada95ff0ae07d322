package dev.hookfan.webhooks;

import dev.hookfan.deliveries.DeliveryIds;
import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import dev.hookfan.support.Receiver;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** A cached organization's webhooks are read again after cache-ttl, even when no change is ever notified. */
@QuarkusTest
@TestProfile(WebhookCacheTtlTest.ShortLived.class)
class WebhookCacheTtlTest {

    public static class ShortLived implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("hookfan.webhooks.cache-ttl", "2S");
        }
    }

    static final String ORG = "org_cache_ttl";

    Receiver receiver;
    Broker broker;

    @BeforeEach
    void start() {
        Database.reset();
        receiver = Receiver.start();
        broker = Broker.connect();
    }

    @AfterEach
    void stop() {
        Database.update("alter table webhook enable trigger user");
        Database.update("alter table webhook_secret enable trigger user");
        receiver.close();
        broker.close();
    }

    @Test
    void should_honour_a_deleted_and_a_created_webhook_within_the_ttl_when_no_change_is_notified() throws Exception {
        String deleted = given().contentType(ContentType.JSON)
                .body("{\"url\":\"" + receiver.url("/deleted") + "\",\"eventTypes\":[\"*\"]}")
                .post("/organizations/{org}/webhooks", ORG).then().statusCode(201).extract().path("id");
        String warm = publish();
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/deleted").size() == 1);
        assertEquals(DeliveryIds.derive(warm, deleted), receiver.requests("/deleted").get(0).header("webhook-id"));

        // Another instance's changes, whose notifications never come.
        Database.update("alter table webhook disable trigger user");
        Database.update("alter table webhook_secret disable trigger user");
        String created = "c0ffee00000000000000000000000000";
        Database.update("delete from webhook where id = ?", deleted);
        Database.update("insert into webhook (id, organization_id, url, event_types, enabled, created_at, updated_at)"
                + " values (?, ?, ?, '{*}', true, now(), now())", created, ORG, receiver.url("/created"));
        Database.update("insert into webhook_secret (webhook_id, secret, created_at) values (?, ?, now())", created,
                "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
        Thread.sleep(2500);

        String after = publish();
        String expected = DeliveryIds.derive(after, created);
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/created").stream()
                .anyMatch(request -> expected.equals(request.header("webhook-id"))));
        assertEquals(0, Database.count("select count(*) from webhook_delivery where id = ?", DeliveryIds.derive(after, deleted)));
    }

    String publish() {
        String messageId = Broker.newMessageId();
        broker.publish("a.b", messageId, Broker.event("a.b", ORG, "{}"));
        return messageId;
    }
}
