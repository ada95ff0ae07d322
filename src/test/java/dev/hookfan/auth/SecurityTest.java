package dev.hookfan.auth;

import dev.hookfan.support.Webhooks;
import dev.hookfan.support.Database;
import dev.hookfan.support.Receiver;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.util.KeyUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
@TestProfile(SecurityTest.Secured.class)
class SecurityTest {

    /** Auth on, internal addresses refused (but one trusted range), as in production. */
    public static class Secured implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("hookfan.auth.enabled", "true",
                    "hookfan.webhooks.allow-private-addresses", "false",
                    "hookfan.webhooks.allowed-cidrs", "10.20.0.0/16,127.0.0.2/32",
                    "hookfan.secrets.encryption-key", "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=");
        }
    }

    static final String ISSUER = "https://hookfan.test";
    static final String AUDIENCE = "hookfan";
    static final String PUBLIC_URL = "https://93.184.216.34/hooks";

    static PrivateKey key() {
        try {
            return KeyUtils.readPrivateKey("test-jwt-private.pem");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String token(Object organizations) {
        return Jwt.issuer(ISSUER).audience(AUDIENCE).subject("tester").claim("org_id", organizations).expiresIn(Duration.ofMinutes(5)).sign(key());
    }

    static RequestSpecification as(String token) {
        return given().header("Authorization", "Bearer " + token);
    }

    @BeforeEach
    void reset() {
        Database.reset();
    }

    /** Leaves no secret sealed with this class's keys to the next test class, whose readiness would fail on it. */
    @org.junit.jupiter.api.AfterEach
    void leaveNoSealedSecrets() {
        Database.reset();
    }

    String createdIn(String org) {
        return Webhooks.create(as(token(org)), org, PUBLIC_URL);
    }

    @Test
    void should_answer_401_problems_without_a_valid_token() throws Exception {
        var otherKey = KeyPairGenerator.getInstance("RSA");
        otherKey.initialize(2048);
        List<RequestSpecification> refused = List.of(
                given(),
                as("not-a-jwt"),
                as(Jwt.issuer(ISSUER).audience(AUDIENCE).claim("org_id", "org_a").sign(otherKey.generateKeyPair().getPrivate())),
                as(Jwt.issuer("https://someone.else").audience(AUDIENCE).claim("org_id", "org_a").sign(key())),
                // Minted by the right issuer for another service, or for no service at all.
                as(Jwt.issuer(ISSUER).audience("billing").claim("org_id", "org_a").sign(key())),
                as(Jwt.issuer(ISSUER).claim("org_id", "org_a").sign(key())),
                as(Jwt.issuer(ISSUER).audience(AUDIENCE).claim("org_id", "org_a").issuedAt(Instant.now().minusSeconds(7200))
                        .expiresAt(Instant.now().minusSeconds(3600)).sign(key())));
        for (RequestSpecification request : refused) {
            request.get("/organizations/{org}/webhooks", "org_a").then().statusCode(401)
                    .header("WWW-Authenticate", "Bearer")
                    .contentType("application/problem+json").body("status", is(401));
        }
    }

    @Test
    void should_open_a_portal_session_only_for_an_organization_in_the_tokens_claim() {
        given().post("/organizations/{org}/portal-sessions", "org_a").then().statusCode(401);
        as(token("org_b")).post("/organizations/{org}/portal-sessions", "org_a").then().statusCode(404);
        String link = as(token("org_a")).post("/organizations/{org}/portal-sessions", "org_a").then().statusCode(201)
                .extract().path("url");
        // The link needs no bearer token, and the portal's session grants nothing on the API.
        String session = given().redirects().follow(false).get(link).then().statusCode(303).extract().cookie("hookfan-portal");
        given().cookie("hookfan-portal", session).get("/portal/webhooks").then().statusCode(200);
        given().cookie("hookfan-portal", session).get("/organizations/{org}/webhooks", "org_a").then().statusCode(401);
        given().cookie("hookfan-portal", session).get("/admin/dead-letters").then().statusCode(401);
    }

    @Test
    void should_let_a_token_act_on_the_organizations_in_its_claim() {
        String id = createdIn("org_a");
        as(token(List.of("org_b", "org_a"))).get("/organizations/{org}/webhooks/{id}", "org_a", id).then().statusCode(200);
        as(token("org_a")).get("/organizations/{org}/webhooks", "org_a").then().statusCode(200).body("items.size()", is(1));
    }

    @Test
    void should_answer_404_like_a_missing_resource_for_another_organization() {
        String id = createdIn("org_a");
        String intruder = token("org_b");
        String missingWebhook = as(token("org_a")).get("/organizations/{org}/webhooks/{id}", "org_a",
                "0123456789abcdef0123456789abcdef").then().statusCode(404).extract().asString();
        assertEquals(missingWebhook, as(intruder).get("/organizations/{org}/webhooks/{id}", "org_a", id)
                .then().statusCode(404).extract().asString());
        String delivery = "0123456789abcdef0123456789abcdef";
        List<Map.Entry<String, String>> calls = List.of(
                Map.entry("GET", "/organizations/org_a/webhooks"),
                Map.entry("POST", "/organizations/org_a/webhooks"),
                Map.entry("GET", "/organizations/org_a/webhooks/" + id),
                Map.entry("PUT", "/organizations/org_a/webhooks/" + id),
                Map.entry("PATCH", "/organizations/org_a/webhooks/" + id),
                Map.entry("DELETE", "/organizations/org_a/webhooks/" + id),
                Map.entry("GET", "/organizations/org_a/webhooks/" + id + "/secret"),
                Map.entry("POST", "/organizations/org_a/webhooks/" + id + "/secret/rotate"),
                Map.entry("POST", "/organizations/org_a/webhooks/" + id + "/test"),
                Map.entry("GET", "/organizations/org_a/webhooks/" + id + "/deliveries"),
                Map.entry("GET", "/organizations/org_a/deliveries/" + delivery),
                Map.entry("POST", "/organizations/org_a/deliveries/" + delivery + "/redeliver"),
                Map.entry("GET", "/organizations/org_a/audit-entries"),
                Map.entry("GET", "/organizations/org_a/entitlements"));
        for (Map.Entry<String, String> call : calls) {
            as(intruder).contentType(ContentType.JSON).body("{}").request(call.getKey(), call.getValue())
                    .then().statusCode(404).contentType("application/problem+json");
        }
        as(token("org_a")).get("/organizations/{org}/webhooks/{id}", "org_a", id).then().statusCode(200);
        assertEquals(1, Database.count("select count(*) from webhook"));
    }

    @Test
    void should_refuse_webhook_urls_that_reach_internal_addresses() {
        String org = token("org_a");
        List<String> hosts = List.of("127.0.0.1", "2130706433", "0177.0.0.1", "0x7f.0.0.1", "127.1", "10.1.2.3",
                "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255",
                "[::1]", "[fc00::1]", "[fe80::1]", "[::ffff:127.0.0.1]", "[::ffff:a9fe:a9fe]", "localhost", "10.21.0.1");
        for (String host : hosts) {
            as(org).contentType(ContentType.JSON).body("{\"url\":\"http://" + host + ":8080/x\",\"eventTypes\":[\"*\"]}")
                    .post("/organizations/{org}/webhooks", "org_a").then().statusCode(422)
                    .contentType("application/problem+json").body("errors.field", hasItem("url"));
        }
        assertEquals(0, Database.count("select count(*) from webhook"));
        as(org).contentType(ContentType.JSON).body("{\"url\":\"http://10.20.1.1/x\",\"eventTypes\":[\"*\"]}")
                .post("/organizations/{org}/webhooks", "org_a").then().statusCode(201);
        String id = createdIn("org_a");
        as(org).contentType(ContentType.JSON).body("{\"url\":\"http://169.254.169.254/latest\"}")
                .patch("/organizations/{org}/webhooks/{id}", "org_a", id).then().statusCode(422);
        as(org).get("/organizations/{org}/webhooks/{id}", "org_a", id).then().body("url", equalTo(PUBLIC_URL));
    }

    @Test
    void should_refuse_a_url_without_saying_what_its_host_resolves_to_or_whether_it_exists() {
        String org = token("org_a");
        List<String> answers = new java.util.ArrayList<>();
        for (String url : List.of("http://localhost:8080/x", "http://10.1.2.3/x", "http://no-such-host.invalid/x")) {
            answers.add(as(org).contentType(ContentType.JSON).body("{\"url\":\"" + url + "\",\"eventTypes\":[\"*\"]}")
                    .post("/organizations/{org}/webhooks", "org_a").then().statusCode(422).extract().asString());
        }
        // A blocked name, a blocked literal and a name that does not exist get one and the same answer.
        assertEquals(1, answers.stream().distinct().count(), answers.toString());
        for (String leak : List.of("127.0.0.1", "10.1.2.3", "::1", "range", "does not exist")) {
            assertTrue(!answers.get(0).contains(leak), answers.get(0));
        }
    }

    @Test
    void should_keep_secrets_encrypted_at_rest_and_still_sign_with_them() {
        try (Receiver receiver = Receiver.start("127.0.0.2")) {
            var created = as(token("org_a")).contentType(ContentType.JSON)
                    .body("{\"url\":\"" + receiver.url("/sealed") + "\",\"eventTypes\":[\"*\"]}")
                    .post("/organizations/{org}/webhooks", "org_a").then().statusCode(201).extract().response();
            String id = created.path("id");
            String secret = created.path("secret");
            String stored = (String) Database.query("select secret from webhook_secret where webhook_id = ?", id).get(0).get(0);
            assertTrue(stored.startsWith("enc:v2:") && !stored.contains(secret.substring(6)), stored);
            as(token("org_a")).get("/organizations/{org}/webhooks/{id}/secret", "org_a", id).then().body("secret", equalTo(secret));

            String deliveryId = as(token("org_a")).post("/organizations/{org}/webhooks/{id}/test", "org_a", id)
                    .then().statusCode(202).extract().path("deliveryId");
            await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/sealed").size() == 1);
            Receiver.Request request = receiver.requests("/sealed").get(0);
            assertEquals(deliveryId, request.header("webhook-id"));
            Map<String, List<String>> headers = new java.util.HashMap<>();
            request.headers().forEach((name, value) -> headers.put(name, List.of(value)));
            org.junit.jupiter.api.Assertions.assertDoesNotThrow(() -> new com.standardwebhooks.Webhook(secret).verify(request.body(), headers));
        }
    }

    @Test
    void should_refuse_at_send_time_without_connecting() {
        try (Receiver receiver = Receiver.start()) {
            // Written behind the API's back, as if the address had changed since it was vetted.
            Database.update("insert into webhook (id, organization_id, url, event_types, enabled, created_at, updated_at)"
                    + " values ('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'org_a', ?, '{*}', true, now(), now())", receiver.url("/internal"));
            Database.update("insert into webhook_secret (webhook_id, secret, created_at) values"
                    + " ('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', now())");
            Database.update("insert into webhook_delivery (id, webhook_id, organization_id, event_id, status,"
                    + " attempts, next_attempt_at, created_at) values ('bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',"
                    + " 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'org_a', 'ee000000000000000000000000000000', 'pending', 0, now(), now())");
            await().atMost(Duration.ofSeconds(10)).until(() -> Database.count(
                    "select count(*) from delivery_attempt where delivery_id = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'") >= 1);
            String error = (String) Database.query("select error from delivery_attempt where delivery_id ="
                    + " 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' order by attempt_number limit 1").get(0).get(0);
            assertTrue(error.contains("refused before connecting"), error);
            assertTrue(!error.contains("range") && !error.contains("resolves to 127"), error);
            assertEquals(0, receiver.requests("/internal").size());
        }
    }
}
