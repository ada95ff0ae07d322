package dev.hookfan.messaging;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.GetResponse;
import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.reactive.messaging.memory.InMemoryConnector;
import io.smallrye.reactive.messaging.rabbitmq.IncomingRabbitMQMetadata;
import jakarta.enterprise.inject.Any;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Constructor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How the consumer settles each message, fed through SmallRye's in-memory connector: ack after the handlers, a copy
 * to the next retry tier or to the DLQ (confirmed by the real broker) before the ack, never a requeue. Nothing
 * consumes the work queue here, so a tier's copy waits there once its pause is over, to be read.
 */
@QuarkusTest
@TestProfile(InMemoryChannels.class)
class IntegrationEventSettlingTest {

    static final String ORG = "org_settling";

    @Inject
    @Any
    InMemoryConnector connector;

    @Inject
    MessagingConfig config;

    Broker broker;
    final Settlements settled = new Settlements();

    @BeforeEach
    void start() {
        Database.reset();
        broker = Broker.connect();
        broker.purge(Broker.WORK_QUEUE);
        broker.purge(Broker.DLQ);
    }

    @AfterEach
    void stop() {
        broker.purge(Broker.WORK_QUEUE);
        broker.close();
    }

    @Test
    void should_ack_a_message_once_its_handlers_succeeded() {
        String messageId = Broker.newMessageId();

        send(messageId, Broker.event("organization.member_added", ORG, "{\"userId\":\"u1\"}"), Map.of());

        await().atMost(Duration.ofSeconds(10)).until(() -> settled.acked.get() == 1);
        assertEquals(1, Database.count("select count(*) from audit_entry where source_message_id = ?", messageId));
        assertEquals(0, settled.nacked.get());
        assertEquals(0, broker.count(Broker.DLQ));
    }

    @Test
    void should_copy_a_failed_message_to_its_first_retry_tier_before_acking_it() {
        String messageId = Broker.newMessageId();

        send(messageId, Broker.event("test.flaky", ORG, "{\"failTimes\":1}"), Map.of("hookfan-attempt", 99));

        await().atMost(Duration.ofSeconds(10)).until(() -> settled.acked.get() == 1);
        GetResponse copy = oneCopyIn(Broker.WORK_QUEUE);
        assertEquals(messageId, copy.getProps().getMessageId());
        // The publisher's own count is not trusted: without the broker's x-death this was attempt 1.
        assertEquals(1, ((Number) copy.getProps().getHeaders().get("hookfan-attempt")).intValue());
        assertTrue(copy.getProps().getHeaders().get("x-death").toString().contains(config.queue() + ".retry."),
                copy.getProps().getHeaders().toString());
        assertEquals(0, settled.nacked.get());
    }

    @Test
    void should_dead_letter_a_message_that_failed_again_after_the_last_tier() {
        String messageId = Broker.newMessageId();
        int limit = RetrySchedule.of(config.retry()).limit();

        send(messageId, Broker.event("test.broken", ORG, "{\"failTimes\":-1}"), Map.of("hookfan-attempt", limit,
                "x-death", List.of(Map.of("queue", config.queue() + ".retry.100ms", "reason", "expired", "count", 1L))));

        await().atMost(Duration.ofSeconds(10)).until(() -> settled.acked.get() == 1);
        GetResponse dead = oneCopyIn(Broker.DLQ);
        assertEquals(limit + 1, ((Number) dead.getProps().getHeaders().get("hookfan-attempts")).intValue());
        String error = dead.getProps().getHeaders().get("hookfan-error").toString();
        assertTrue(error.contains("planned failure"), error);
        assertEquals(0, broker.count(Broker.WORK_QUEUE));
    }

    @Test
    void should_dead_letter_a_malformed_or_id_less_message_at_once_with_the_reason() {
        send(Broker.newMessageId(), "not json {", Map.of());
        send(null, Broker.event("organization.member_added", ORG, "{}"), Map.of());

        await().atMost(Duration.ofSeconds(10)).until(() -> settled.acked.get() == 2);
        List<String> errors = new ArrayList<>();
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            broker.drain(Broker.DLQ).forEach(dead -> errors.add(dead.getProps().getHeaders().get("hookfan-error").toString()));
            return errors.size() == 2;
        });
        assertTrue(errors.stream().allMatch(error -> error.startsWith("malformed: ")), errors.toString());
        assertTrue(errors.stream().anyMatch(error -> error.contains("no message_id")), errors.toString());
        assertEquals(0, settled.nacked.get());
    }

    private GetResponse oneCopyIn(String queue) {
        List<GetResponse> copies = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            copies.addAll(broker.drain(queue));
            return !copies.isEmpty();
        });
        assertEquals(1, copies.size());
        return copies.get(0);
    }

    private void send(String messageId, String body, Map<String, Object> headers) {
        connector.source(ConsumerStart.EVENTS).send(settled.message(body, Metadata.of(metadata(messageId, headers))));
    }

    /** What the RabbitMQ connector attaches to a delivery; its constructor is not public, so it is opened here. */
    private static IncomingRabbitMQMetadata metadata(String messageId, Map<String, Object> headers) {
        try {
            Constructor<IncomingRabbitMQMetadata> constructor = IncomingRabbitMQMetadata.class
                    .getDeclaredConstructor(com.rabbitmq.client.BasicProperties.class, Envelope.class);
            constructor.setAccessible(true);
            AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().messageId(messageId)
                    .contentType("application/json").headers(new HashMap<>(headers)).build();
            return constructor.newInstance(properties, new Envelope(1, false, Broker.EXCHANGE, "test"));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
