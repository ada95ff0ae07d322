package dev.hookfan.webhooks;

import dev.hookfan.support.Webhooks;
import dev.hookfan.deliveries.DeliveryIds;
import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import dev.hookfan.support.Receiver;
import dev.hookfan.support.TcpProxy;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.URL;
import java.time.Duration;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The webhook change listener is proven alive by its heartbeat: one that cannot connect at start keeps trying, and one
 * whose connection goes silent (a NAT dropped it) is replaced, the cache emptied, so what it missed is honoured.
 * (Entries expiring after cache-ttl whatever the notifications say: {@link WebhookCacheTtlTest}.)
 */
@QuarkusTest
@TestProfile(WebhookCacheTest.ShortLivedThroughAProxy.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebhookCacheTest {

    /** The listener reaches PostgreSQL through a proxy that refuses it at first. Entries live longer than any test here. */
    static final TcpProxy PROXY = TcpProxy.to(5432, true);

    public static class ShortLivedThroughAProxy implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("hookfan.webhooks.cache-ttl", "5M",
                    "hookfan.webhooks.listener-heartbeat", "1S",
                    "hookfan.webhooks.listener-url", "postgresql://127.0.0.1:" + PROXY.port() + "/hookfan_test");
        }
    }

    static final String ORG = "org_cache";

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

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
        receiver.close();
        broker.close();
    }

    double trusted() {
        return given().get(metrics).then().extract().asString().lines()
                .filter(line -> line.startsWith("hookfan_webhooks_cache_trusted"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).findFirst().orElse(-1);
    }

    @Test
    @Order(1)
    void should_keep_trying_a_listener_that_could_not_connect_at_start() {
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> trusted() == 0);
        PROXY.refuse(false);
        await().atMost(Duration.ofSeconds(15)).until(() -> trusted() == 1);
    }

    @Test
    @Order(2)
    void should_listen_again_when_the_listener_goes_silent_and_honour_what_it_missed() {
        PROXY.refuse(false);
        await().atMost(Duration.ofSeconds(15)).until(() -> trusted() == 1);
        String first = webhook("/first");
        String warm = publish();
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/first").size() == 1);
        assertEquals(DeliveryIds.derive(warm, first), receiver.requests("/first").get(0).header("webhook-id"));
        int before = PROXY.connections();

        PROXY.dropSilently();
        // Another instance's change, notified on a connection that no longer carries anything.
        String second = "5ec0d000000000000000000000000000";
        Database.update("insert into webhook (id, organization_id, url, event_types, enabled, created_at, updated_at)"
                + " values (?, ?, ?, '{*}', true, now(), now())", second, ORG, receiver.url("/second"));
        Database.update("insert into webhook_secret (webhook_id, secret, created_at) values (?, ?, now())", second,
                "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");

        await().atMost(Duration.ofSeconds(10)).until(() -> PROXY.connections() > before && trusted() == 1);
        String after = publish();
        String expected = DeliveryIds.derive(after, second);
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/second").stream()
                .anyMatch(request -> expected.equals(request.header("webhook-id"))));
    }

    String webhook(String path) {
        return Webhooks.create(ORG, receiver.url(path));
    }

    String publish() {
        String messageId = Broker.newMessageId();
        broker.publish("a.b", messageId, Broker.event("a.b", ORG, "{}"));
        return messageId;
    }
}
