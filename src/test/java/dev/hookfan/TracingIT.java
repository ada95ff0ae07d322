package dev.hookfan;

import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import dev.hookfan.support.OtlpReceiver.ReceivedSpan;
import dev.hookfan.support.Receiver;
import dev.hookfan.tracing.TracingProfile;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tracing switched on in the packaged application (the native executable on the native leg), exporting OTLP/HTTP. */
@QuarkusIntegrationTest
@TestProfile(TracingProfile.class)
class TracingIT {

    static final String ORG = "org_traced_it";
    static final String TRACE = "0af7651916cd43dd8448eb211c80319c";

    Receiver subscriber;
    Broker broker;

    @BeforeEach
    void start() {
        Database.reset();
        subscriber = Receiver.start();
        broker = Broker.connect();
    }

    @AfterEach
    void stop() {
        subscriber.close();
        broker.close();
    }

    @Test
    void a_publishers_trace_reaches_the_subscriber_through_spans_the_collector_receives() {
        given().contentType(ContentType.JSON)
                .body("{\"url\":\"" + subscriber.url("/traced") + "\",\"eventTypes\":[\"a.b\"]}")
                .post("/organizations/{org}/webhooks", ORG).then().statusCode(201);
        broker.publish("a.b", Broker.newMessageId(), Broker.event("a.b", ORG, "{}").getBytes(StandardCharsets.UTF_8),
                Map.of("traceparent", "00-" + TRACE + "-b7ad6b7169203331-01"));

        await().atMost(Duration.ofSeconds(15)).until(() -> subscriber.requests("/traced").size() == 1);
        String[] traceparent = subscriber.requests("/traced").get(0).header("traceparent").split("-");
        assertEquals(TRACE, traceparent[1]);
        await().atMost(Duration.ofSeconds(10)).until(() -> TracingProfile.COLLECTOR.trace(TRACE).stream()
                .anyMatch(span -> span.spanId().equals(traceparent[2])));
        List<String> names = TracingProfile.COLLECTOR.trace(TRACE).stream().map(ReceivedSpan::name).toList();
        assertTrue(names.containsAll(List.of("process hookfan.integration-events", "handle WebhookFanOutHandler",
                "publish hookfan.deliveries", "process hookfan.deliveries", "deliver", "POST")), names::toString);
    }
}
