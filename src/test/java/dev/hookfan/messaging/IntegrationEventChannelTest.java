package dev.hookfan.messaging;

import com.rabbitmq.client.GetResponse;
import dev.hookfan.support.Broker;
import dev.hookfan.support.TestHandlers.Call;
import dev.hookfan.support.TestHandlers.FlakyHandler;
import dev.hookfan.support.TestHandlers.HoldingHandler;
import dev.hookfan.support.TestHandlers.MeetingHandler;
import dev.hookfan.support.TestHandlers.SiblingHandler;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
class IntegrationEventChannelTest {

    @Inject
    MessagingConfig config;

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
    void should_handle_a_failing_message_again_with_the_same_id_after_each_configured_pause() {
        String messageId = Broker.newMessageId();
        broker.publish("test.flaky", messageId, Broker.event("test.flaky", "org_channel", "{\"failTimes\":3}"));

        await().atMost(Duration.ofSeconds(20)).until(() -> calls(FlakyHandler.CALLS, messageId).size() == 4);
        List<Call> calls = calls(FlakyHandler.CALLS, messageId);
        assertTrue(calls.stream().allMatch(call -> call.messageId().equals(messageId)));
        List<Duration> pauses = RetrySchedule.of(config.retry()).pauses();
        for (int i = 1; i < calls.size(); i++) {
            Duration gap = Duration.ofNanos(calls.get(i).atNanos() - calls.get(i - 1).atNanos());
            assertTrue(gap.compareTo(pauses.get(i - 1)) >= 0, "gap " + i + " was " + gap + ", pause " + pauses.get(i - 1));
        }
        // It succeeded on the 4th attempt: no 5th, and nothing dead-lettered.
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).until(() -> calls(FlakyHandler.CALLS, messageId).size() == 4);
        assertEquals(0, dlqMessagesWithId(messageId).size());
    }

    @Test
    void should_dead_letter_a_message_that_always_fails_after_limit_plus_one_attempts() {
        String messageId = Broker.newMessageId();
        broker.publish("test.broken", messageId, Broker.event("test.broken", "org_channel", "{\"failTimes\":-1}"));

        int attempts = config.retry().limit() + 1;
        List<GetResponse> dead = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            dead.addAll(dlqMessagesWithId(messageId));
            return !dead.isEmpty();
        });
        GetResponse message = dead.get(0);
        assertEquals(attempts, ((Number) message.getProps().getHeaders().get("hookfan-attempts")).intValue());
        String error = message.getProps().getHeaders().get("hookfan-error").toString();
        assertTrue(error.contains("FlakyHandler") && error.contains("planned failure"), error);
        assertTrue(error.length() <= 1000);
        assertEquals(Broker.event("test.broken", "org_channel", "{\"failTimes\":-1}"),
                new String(message.getBody(), StandardCharsets.UTF_8));
        assertEquals(attempts, calls(FlakyHandler.CALLS, messageId).size());
    }

    @Test
    void should_dead_letter_a_malformed_message_at_once_with_the_reason() {
        String notJson = Broker.newMessageId();
        String noType = Broker.newMessageId();
        String noOrganization = Broker.newMessageId();
        broker.publish("test.malformed", notJson, "{not json");
        broker.publish("test.malformed", noType, "{\"organizationId\":\"org_1\"}");
        broker.publish("test.malformed", noOrganization, "{\"type\":\"test.malformed\"}");

        Map<String, String> reasons = new java.util.concurrent.ConcurrentHashMap<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            broker.drain(Broker.DLQ).forEach(response -> {
                assertEquals(1, ((Number) response.getProps().getHeaders().get("hookfan-attempts")).intValue());
                reasons.put(response.getProps().getMessageId(), response.getProps().getHeaders().get("hookfan-error").toString());
            });
            return reasons.size() == 3;
        });
        assertTrue(reasons.get(notJson).contains("not valid JSON"), reasons.get(notJson));
        assertTrue(reasons.get(noType).contains("'type' is required"), reasons.get(noType));
        assertTrue(reasons.get(noOrganization).contains("'organizationId' is required"), reasons.get(noOrganization));
    }

    @Test
    void should_dead_letter_a_message_without_message_id_at_once() {
        String marker = Broker.newMessageId();
        broker.publish("test.anonymous", null, Broker.event("test.anonymous", "org_" + marker.substring(0, 8), "{}"));

        List<GetResponse> dead = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            dead.addAll(broker.drain(Broker.DLQ));
            return !dead.isEmpty();
        });
        assertEquals(1, ((Number) dead.get(0).getProps().getHeaders().get("hookfan-attempts")).intValue());
        assertTrue(dead.get(0).getProps().getHeaders().get("hookfan-error").toString().contains("no message_id"));
    }

    @Test
    void should_run_every_handler_even_when_a_sibling_fails() {
        String messageId = Broker.newMessageId();
        broker.publish("test.pair", messageId, Broker.event("test.pair", "org_channel", "{\"failTimes\":1}"));

        await().atMost(Duration.ofSeconds(10)).until(() -> calls(FlakyHandler.CALLS, messageId).size() == 2);
        // The sibling ran on the failed first attempt too, and again on the retry: it must tolerate that.
        await().atMost(Duration.ofSeconds(5)).until(() -> calls(SiblingHandler.CALLS, messageId).size() == 2);
    }

    @Test
    void should_run_the_handlers_that_use_no_session_at_once_so_an_event_waits_for_the_slowest_not_the_sum() {
        String messageId = Broker.newMessageId();
        broker.publish("test.meet", messageId, Broker.event("test.meet", "org_channel", "{}"));

        await().atMost(Duration.ofSeconds(10)).until(() -> calls(SiblingHandler.CALLS, messageId).size() == 1);
        // One after another, the first of the two would have given up waiting and the message would have come back.
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() ->
                MeetingHandler.ARRIVED.getOrDefault(messageId, List.of()).size() == 2
                        && calls(SiblingHandler.CALLS, messageId).size() == 1);
        assertEquals(List.of("FirstMeetingHandler", "SecondMeetingHandler"),
                MeetingHandler.ARRIVED.get(messageId).stream().sorted().toList());
    }

    @Test
    void should_handle_every_message_a_consumer_holds_at_once_each_with_its_own_message_id() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ids.add(Broker.newMessageId());
            broker.publish("test.held", ids.get(i), Broker.event("test.held", "org_channel", "{}"));
        }
        try {
            // None completes until released: all 20 in handlers at once, with only this many consumers.
            assertTrue(ids.size() > config.concurrency());
            await().atMost(Duration.ofSeconds(10)).until(() -> HoldingHandler.HELD.containsAll(ids));
            List<String> seen = HoldingHandler.HELD.stream().filter(ids::contains).toList();
            assertEquals(ids.size(), seen.size(), "each message handled once, under its own id: " + seen);
        } finally {
            HoldingHandler.releaseAll();
        }
        // Released, each completes and is acked: none is handled again, none dead-lettered.
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3))
                .until(() -> HoldingHandler.HELD.stream().filter(ids::contains).count() == ids.size());
        assertTrue(broker.drain(Broker.DLQ).stream().noneMatch(m -> ids.contains(m.getProps().getMessageId())));
    }

    @Test
    void should_have_no_message_id_in_an_http_request() {
        given().get("/test-support/context").then().statusCode(200).body("hasMessageId", is(false));
    }

    private List<GetResponse> dlqMessagesWithId(String messageId) {
        return broker.drain(Broker.DLQ).stream().filter(m -> messageId.equals(m.getProps().getMessageId())).toList();
    }

    private static List<Call> calls(Map<String, List<Call>> calls, String messageId) {
        return calls.getOrDefault(messageId, List.of());
    }
}
