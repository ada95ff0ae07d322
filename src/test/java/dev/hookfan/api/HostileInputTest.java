package dev.hookfan.api;

import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.lessThan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hostile input gets a 4xx problem or the DLQ: never a 500, never a half-written row. */
@QuarkusTest
class HostileInputTest {

    static final String WEBHOOKS = "/organizations/org_hostile/webhooks";

    Broker broker;

    @BeforeEach
    void reset() {
        Database.reset();
        broker = Broker.connect();
        broker.purge(Broker.DLQ);
    }

    @AfterEach
    void close() {
        broker.close();
    }

    static String nested(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }

    @Test
    void should_answer_every_hostile_request_with_a_4xx_problem_and_write_nothing() {
        Map<String, String> bodies = new java.util.LinkedHashMap<>();
        bodies.put("huge description", "{\"url\":\"https://localhost\",\"eventTypes\":[\"a.b\"],\"description\":\"" + "x".repeat(300_000) + "\"}");
        bodies.put("deep JSON", "{\"url\":\"https://localhost\",\"eventTypes\":" + nested(5000) + "}");
        bodies.put("numbers for strings", "{\"url\":1e400,\"eventTypes\":[true,null,{}]}");
        bodies.put("null body", "null");
        bodies.put("truncated", "{\"url\":\"https://localhost\",\"eventTypes\":[\"a.b\"");
        bodies.put("homoglyph host", "{\"url\":\"https://l\u043ecalhost/\",\"eventTypes\":[\"a.b\"]}");
        bodies.put("bidi override", "{\"url\":\"https://localhost/\u202Egpj.exe\",\"eventTypes\":[\"a.b\"]}");
        bodies.put("control characters", "{\"url\":\"https://local\\u0000host/\",\"eventTypes\":[\"a.b\"]}");
        bodies.put("javascript scheme", "{\"url\":\"javascript:alert(1)\",\"eventTypes\":[\"a.b\"]}");
        bodies.put("SQL in event type", "{\"url\":\"https://localhost\",\"eventTypes\":[\"a.b'); drop table webhook;--\"]}");
        bodies.forEach((name, body) -> given().contentType(ContentType.JSON).body(body.getBytes(StandardCharsets.UTF_8))
                .post(WEBHOOKS).then()
                .statusCode(allOf(greaterThanOrEqualTo(400), lessThan(500)))
                .contentType("application/problem+json"));

        List<String> paths = List.of(
                "/organizations/org_hostile/webhooks/..%2F..%2Fetc%2Fpasswd",
                "/organizations/org_hostile/webhooks/'%20or%201=1%20--",
                "/organizations/org'%3B%20drop%20table%20webhook%3B--/webhooks",
                "/organizations/" + "o".repeat(300) + "/webhooks",
                "/organizations/org_hostile/deliveries/%00",
                "/organizations/org_hostile/webhooks?limit=abc",
                "/organizations/org_hostile/webhooks?limit=99999999999999",
                "/organizations/org_hostile/audit-entries?since=%27%3B--");
        for (String path : paths) {
            given().urlEncodingEnabled(false).get(path).then()
                    .statusCode(allOf(greaterThanOrEqualTo(400), lessThan(500)))
                    .contentType("application/problem+json");
        }
        assertEquals(0, Database.count("select count(*) from webhook"));
        assertEquals(0, Database.count("select count(*) from webhook_secret"));
    }

    @Test
    void should_dead_letter_hostile_messages_with_reasons_and_handle_the_healthy_ones() {
        Map<String, byte[]> poison = new HashMap<>();
        poison.put(Broker.newMessageId(), "{\"type\":\"a.b\",\"organizationId\":\"org_hostile\"".getBytes(StandardCharsets.UTF_8));
        poison.put(Broker.newMessageId(), new byte[]{(byte) 0xC3, (byte) 0x28, (byte) 0xFF, (byte) 0xFE});
        poison.put(Broker.newMessageId(), ("{\"type\":\"a.b\",\"organizationId\":\"org_hostile\",\"data\":\"" + "x".repeat(70_000) + "\"}")
                .getBytes(StandardCharsets.UTF_8));
        poison.put(Broker.newMessageId(), ("{\"type\":\"a.b\",\"organizationId\":\"org_hostile\",\"data\":" + nested(3000) + "}")
                .getBytes(StandardCharsets.UTF_8));
        poison.put(Broker.newMessageId(), "{\"type\":[\"a.b\"],\"organizationId\":{}}".getBytes(StandardCharsets.UTF_8));
        poison.put(Broker.newMessageId(), "{\"type\":\"a.b\",\"organizationId\":\"o\",\"occurredAt\":\"yesterday\"}".getBytes(StandardCharsets.UTF_8));
        poison.forEach((id, body) -> broker.publish("a.b", id, body, Map.of()));
        String healthy = Broker.newMessageId();
        broker.publish("a.b", healthy, Broker.event("a.b", "org_hostile", "{}").getBytes(StandardCharsets.UTF_8),
                Map.of("x-huge", "h".repeat(50_000)));

        Map<String, String> reasons = new java.util.concurrent.ConcurrentHashMap<>();
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            broker.drain(Broker.DLQ).forEach(m -> reasons.put(m.getProps().getMessageId(),
                    m.getProps().getHeaders().get("hookfan-error").toString()));
            return reasons.keySet().containsAll(poison.keySet());
        });
        reasons.forEach((id, reason) -> assertTrue(reason.startsWith("malformed: "), reason));
        await().atMost(Duration.ofSeconds(10)).until(() ->
                Database.count("select count(*) from audit_entry where source_message_id = ?", healthy) == 1);
        assertEquals(0, Database.count("select count(*) from audit_entry where source_message_id <> ?", healthy));
    }
}
