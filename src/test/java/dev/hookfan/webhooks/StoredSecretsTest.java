package dev.hookfan.webhooks;

import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import dev.hookfan.support.Receiver;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Secrets at rest across a key rotation: read with either key, sealed again with the new one, never silently unreadable. */
@QuarkusTest
@TestProfile(StoredSecretsTest.Rotating.class)
class StoredSecretsTest {

    public static class Rotating implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("hookfan.secrets.encryption-key", SecretCipherTest.NEW_KEY,
                    "hookfan.secrets.previous-encryption-key", SecretCipherTest.OLD_KEY);
        }
    }

    static final String ORG = "org_secrets";
    static final String UNKNOWN_KEY = Base64.getEncoder().encodeToString("not-a-key-this-service-knows-of".concat("!")
            .getBytes(StandardCharsets.US_ASCII));

    @TestHTTPResource(value = "/health/ready", management = true)
    URL ready;

    @Inject
    SecretResealer resealer;

    @BeforeEach
    void reset() {
        Database.reset();
    }

    /** Leaves no secret sealed with this class's keys to the next test class, whose readiness would fail on it. */
    @org.junit.jupiter.api.AfterEach
    void leaveNoSealedSecrets() {
        Database.reset();
    }

    static void webhook(String id, String url, String storedSecret) {
        Database.update("insert into webhook (id, organization_id, url, event_types, enabled, created_at, updated_at)"
                + " values (?, ?, ?, '{*}', true, now(), now())", id, ORG, url);
        Database.update("insert into webhook_secret (webhook_id, secret, created_at) values (?, ?, now())", id, storedSecret);
    }

    @Test
    void should_not_be_ready_while_a_stored_secret_opens_with_neither_configured_key() {
        given().get(ready).then().statusCode(200);
        String id = "cccccccccccccccccccccccccccccccc";
        webhook(id, "https://example.com/hooks", SecretCipherTest.cipher(UNKNOWN_KEY, null).seal(id, SecretCipherTest.SECRET));

        given().get(ready).then().statusCode(503).body("checks.findAll { it.status == 'DOWN' }.name", hasItem("Hookfan webhook secrets"));
        Database.update("delete from webhook_secret where webhook_id = ?", id);
        given().get(ready).then().statusCode(200);
    }

    @Test
    void should_seal_every_stored_secret_again_with_the_current_key_and_sign_with_it_as_before() throws Exception {
        try (Receiver receiver = Receiver.start(); Broker broker = Broker.connect()) {
            String secret = SecretCipherTest.SECRET;
            List<String> ids = List.of("a1000000000000000000000000000000", "a2000000000000000000000000000000",
                    "a3000000000000000000000000000000");
            webhook(ids.get(0), receiver.url("/rotated"), SecretCipherTest.cipher(SecretCipherTest.OLD_KEY, null).seal(ids.get(0), secret));
            webhook(ids.get(1), receiver.url("/rotated"), SecretCipherTest.sealedTheOldWay(SecretCipherTest.OLD_KEY, secret));
            webhook(ids.get(2), receiver.url("/rotated"), secret);

            assertEquals(3, resealer.resealAll().await().atMost(Duration.ofSeconds(10)));
            String current = SecretCipherTest.cipher(SecretCipherTest.NEW_KEY, null).seal(ids.get(0), secret).substring(0, 16);
            assertEquals(3, Database.count("select count(*) from webhook_secret where secret like ?", current + "%"));
            assertEquals(0, resealer.resealAll().await().atMost(Duration.ofSeconds(10)));

            broker.publish("a.b", Broker.newMessageId(), Broker.event("a.b", ORG, "{}"));
            await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/rotated").size() == 3);
            for (Receiver.Request request : receiver.requests("/rotated")) {
                Map<String, List<String>> headers = request.headers().entrySet().stream()
                        .collect(Collectors.toMap(Map.Entry::getKey, entry -> List.of(entry.getValue())));
                assertDoesNotThrow(() -> new com.standardwebhooks.Webhook(secret).verify(request.body(), headers));
            }
        }
    }
}
