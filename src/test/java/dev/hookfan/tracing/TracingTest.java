package dev.hookfan.tracing;

import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import dev.hookfan.support.OtlpReceiver;
import dev.hookfan.support.OtlpReceiver.ReceivedSpan;
import dev.hookfan.support.Receiver;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tracing switched on at run time, exporting OTLP/HTTP to a receiver as a collector would: a message's trace runs from
 * the publisher through the consume, its handlers and statements, the delivery request and the POST, whose traceparent
 * carries the same trace to the subscriber.
 */
@QuarkusTest
@TestProfile(TracingProfile.class)
class TracingTest {

    static final OtlpReceiver COLLECTOR = TracingProfile.COLLECTOR;
    static final String ORG = "org_traced";
    static final String PUBLISHER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    static final String PUBLISHER_SPAN = "00f067aa0ba902b7";

    Receiver subscriber;
    Broker broker;

    @BeforeEach
    void start() {
        Database.reset();
        subscriber = Receiver.start();
        broker = Broker.connect();
        given().contentType(ContentType.JSON)
                .body("{\"url\":\"" + subscriber.url("/traced") + "\",\"eventTypes\":[\"organization.member_removed\"]}")
                .post("/organizations/{org}/webhooks", ORG).then().statusCode(201);
    }

    @AfterEach
    void stop() {
        subscriber.close();
        broker.close();
    }

    Receiver.Request publishAndReceive(Map<String, Object> headers) {
        broker.publish("organization.member_removed", Broker.newMessageId(),
                Broker.event("organization.member_removed", ORG, "{\"userId\":\"u1\"}").getBytes(StandardCharsets.UTF_8), headers);
        await().atMost(Duration.ofSeconds(10)).until(() -> subscriber.requests("/traced").size() == 1);
        return subscriber.requests("/traced").get(0);
    }

    /** The spans of the trace, once the POST's span (the last to end before the record) has been exported. */
    List<ReceivedSpan> exported(String traceId, String postSpanId) {
        await().atMost(Duration.ofSeconds(10)).until(() -> COLLECTOR.trace(traceId).stream()
                .anyMatch(span -> span.spanId().equals(postSpanId)));
        return COLLECTOR.trace(traceId);
    }

    static ReceivedSpan only(List<ReceivedSpan> spans, String name) {
        List<ReceivedSpan> named = spans.stream().filter(span -> span.name().equals(name)).toList();
        assertEquals(1, named.size(), () -> "one span named " + name + " in " + names(spans));
        return named.get(0);
    }

    static boolean isStatement(ReceivedSpan span) {
        return span.kind() == ReceivedSpan.CLIENT && span.attributes().keySet().stream().anyMatch(key -> key.startsWith("db."));
    }

    static Set<String> names(List<ReceivedSpan> spans) {
        return spans.stream().map(ReceivedSpan::name).collect(Collectors.toSet());
    }

    @Test
    void aPublishersTraceContinuesThroughTheConsumeTheHandlersTheStatementsTheRequestAndThePost() {
        Receiver.Request post = publishAndReceive(Map.of("traceparent", "00-" + PUBLISHER_TRACE + "-" + PUBLISHER_SPAN + "-01"));

        String[] traceparent = post.header("traceparent").split("-");
        assertEquals(PUBLISHER_TRACE, traceparent[1], "the subscriber's traceparent continues the publisher's trace");
        assertNotEquals(PUBLISHER_SPAN, traceparent[2], "and names Hookfan's own POST span");
        List<ReceivedSpan> trace = exported(PUBLISHER_TRACE, traceparent[2]);

        ReceivedSpan consume = only(trace, "process hookfan.integration-events");
        assertEquals(ReceivedSpan.CONSUMER, consume.kind());
        assertEquals(PUBLISHER_SPAN, consume.parentSpanId());
        for (String handler : List.of("handle WebhookFanOutHandler", "handle AuditEntryRecorder")) {
            ReceivedSpan handled = only(trace, handler);
            assertEquals(consume.spanId(), handled.parentSpanId(), handler + " is the consume's child");
            assertTrue(trace.stream().anyMatch(span -> span.parentSpanId().equals(handled.spanId()) && isStatement(span)),
                    () -> handler + " has its statements under it: " + names(trace));
        }

        ReceivedSpan publish = only(trace, "publish hookfan.deliveries");
        assertEquals(ReceivedSpan.PRODUCER, publish.kind());
        ReceivedSpan requestConsumed = only(trace, "process hookfan.deliveries");
        assertEquals(publish.spanId(), requestConsumed.parentSpanId(), "the delivery request's consume follows its publish");

        ReceivedSpan deliver = only(trace, "deliver");
        assertEquals(consume.spanId(), deliver.parentSpanId(), "the attempt continues the message's trace");
        ReceivedSpan posted = only(trace, "POST");
        assertEquals(ReceivedSpan.CLIENT, posted.kind());
        assertEquals(traceparent[2], posted.spanId());
        assertEquals(deliver.spanId(), posted.parentSpanId());
        assertEquals("200", posted.attribute("http.response.status_code"));
        assertTrue(trace.stream().anyMatch(span -> span.parentSpanId().equals(deliver.spanId()) && isStatement(span)),
                "the attempt's record is a statement under it");
    }

    @Test
    void aMessageWithoutTraceparentStartsATraceOfItsOwnThatReachesTheSubscriber() {
        Receiver.Request post = publishAndReceive(Map.of());

        String[] traceparent = post.header("traceparent").split("-");
        List<ReceivedSpan> trace = exported(traceparent[1], traceparent[2]);
        ReceivedSpan consume = only(trace, "process hookfan.integration-events");
        assertEquals("", consume.parentSpanId(), "the consume is the trace's root");
        assertEquals(consume.spanId(), only(trace, "deliver").parentSpanId());
    }

    @Test
    void statementsOutsideAnyTraceAreNotRecorded() {
        // The poller and the outbox relay run every second here; none of their statements makes a trace of its own.
        await().pollDelay(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> true);
        List<ReceivedSpan> rootStatements = COLLECTOR.spans().stream()
                .filter(span -> span.parentSpanId().isEmpty() && isStatement(span)).toList();
        assertFalse(COLLECTOR.spans().isEmpty(), "the service exports spans (its API requests at least)");
        assertTrue(rootStatements.isEmpty(), () -> "root statements recorded: " + rootStatements);
    }
}
