package dev.hookfan.messaging;

import com.rabbitmq.client.GetResponse;
import dev.hookfan.support.Broker;
import dev.hookfan.support.TestHandlers.Call;
import dev.hookfan.support.TestHandlers.FlakyHandler;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a careless or hostile publisher controls (headers, ids, types, queues it can delete) cannot loop or lose a message. */
@QuarkusTest
class HostilePublisherTest {

    @Inject
    MessagingConfig config;

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    Broker broker;

    @BeforeEach
    void connect() {
        broker = Broker.connect();
        broker.purge(Broker.DLQ);
    }

    @AfterEach
    void close() {
        broker.close();
    }

    @Test
    void should_retry_a_fresh_message_whatever_attempt_count_its_publisher_wrote() {
        String messageId = Broker.newMessageId();
        broker.publish("test.flaky", messageId, Broker.event("test.flaky", "org_hostile", "{\"failTimes\":1}")
                .getBytes(StandardCharsets.UTF_8), Map.of(EventCopies.ATTEMPT_HEADER, config.retry().limit()));

        await().atMost(Duration.ofSeconds(10)).until(() -> calls(messageId).size() == 2);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> calls(messageId).size() == 2);
        assertEquals(0, dead(messageId).size());
    }

    @Test
    void should_dead_letter_once_a_message_whose_attempt_count_overflows_an_int() {
        String messageId = Broker.newMessageId();
        // As if it came back from a retry tier: the count is then read, and must be clamped, not overflowed.
        Map<String, Object> forged = Map.of(EventCopies.ATTEMPT_HEADER, Integer.MAX_VALUE,
                "x-death", List.of(Map.of("queue", config.queue() + ".retry.100ms", "reason", "expired", "count", 1L)));
        broker.publish("test.broken", messageId, Broker.event("test.broken", "org_hostile", "{\"failTimes\":-1}")
                .getBytes(StandardCharsets.UTF_8), forged);

        Map<String, GetResponse> dead = new ConcurrentHashMap<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            dead(messageId).forEach(response -> dead.put(messageId, response));
            return dead.containsKey(messageId);
        });
        assertEquals(config.retry().limit() + 1, ((Number) dead.get(messageId).getProps().getHeaders().get("hookfan-attempts")).intValue());
        // Handled once, not spun in a requeue loop.
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> calls(messageId).size() == 1);
    }

    @Test
    void should_dead_letter_at_once_a_message_with_control_characters_in_its_type_organization_or_id() {
        String crlfType = Broker.newMessageId();
        String nulOrganization = Broker.newMessageId();
        String lfId = Broker.newMessageId() + "\nINFO forged log line";
        broker.publish("test.control", crlfType, Broker.event("test.control\\r\\nX-Injected: 1", "org_hostile", "{}"));
        broker.publish("test.control", nulOrganization, Broker.event("test.control", "org_\\u0000hostile", "{}"));
        broker.publish("test.control", lfId, Broker.event("test.control", "org_hostile", "{}"));

        Map<String, String> reasons = new ConcurrentHashMap<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            broker.drain(Broker.DLQ).forEach(response -> reasons.put(response.getProps().getMessageId(),
                    response.getProps().getHeaders().get("hookfan-error").toString()));
            return reasons.size() == 3;
        });
        assertTrue(reasons.get(crlfType).contains("'type' must not contain control characters"), reasons.get(crlfType));
        assertTrue(reasons.get(nulOrganization).contains("'organizationId' must not contain control characters"), reasons.get(nulOrganization));
        assertTrue(reasons.get(lfId).contains("message_id must not contain control characters"), reasons.get(lfId));
        assertEquals(0, calls(crlfType).size() + calls(nulOrganization).size() + calls(lfId).size(), "no handler ran");
    }

    @Test
    void should_keep_a_message_whose_dead_letter_queue_was_deleted_and_declare_the_queue_again() {
        broker.deleteQueue(Broker.DLQ);
        String messageId = Broker.newMessageId();
        broker.publish("test.malformed", messageId, "{not json");

        // The first copy is returned (no queue): the original comes back, the topology is declared again, and the
        // next copy lands.
        await().atMost(Duration.ofSeconds(20)).until(() -> broker.exists(Broker.DLQ)
                && broker.drain(Broker.DLQ).stream().anyMatch(response -> messageId.equals(response.getProps().getMessageId())));
    }

    @Test
    void should_tag_meters_with_a_bounded_number_of_event_types() {
        int types = 150;
        for (int n = 0; n < types; n++) {
            broker.publish("unrouted.type" + n, Broker.newMessageId(), Broker.event("nobody.takes.type" + n, "org_hostile", "{}"));
        }
        Pattern consumed = Pattern.compile("^hookfan_events_consumed_total\\{[^}]*type=\"([^\"]+)\"", Pattern.MULTILINE);
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            String text = given().get(metrics).then().statusCode(200).extract().asString();
            Matcher matcher = consumed.matcher(text);
            int distinct = 0;
            boolean other = false;
            while (matcher.find()) {
                distinct++;
                other |= matcher.group(1).equals("other");
            }
            assertTrue(other, "types beyond the cap count as other");
            assertTrue(distinct <= 101, distinct + " distinct type tags");
        });
    }

    private List<GetResponse> dead(String messageId) {
        return broker.drain(Broker.DLQ).stream().filter(response -> messageId.equals(response.getProps().getMessageId())).toList();
    }

    private static List<Call> calls(String messageId) {
        return FlakyHandler.CALLS.getOrDefault(messageId, List.of());
    }
}
