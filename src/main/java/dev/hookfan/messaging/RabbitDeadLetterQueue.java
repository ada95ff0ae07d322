package dev.hookfan.messaging;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import dev.hookfan.deadletters.DeadLetter;
import dev.hookfan.deadletters.DeadLetterQueue;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Predicate;

/**
 * The dead-letter queue through the Java client, on a connection opened per call on a worker thread (operators call
 * rarely). Messages are taken unacknowledged: those left alone go back to their places when the channel closes, which
 * a classic queue does not count as a delivery; a chosen one is republished to the work queue, confirmed, and only
 * then acknowledged, so a crash in between leaves a duplicate (which the handlers absorb), never a loss.
 */
@Singleton
class RabbitDeadLetterQueue implements DeadLetterQueue {

    static final String DEAD_LETTERED_AT_HEADER = "hookfan-dead-lettered-at";
    private static final Logger LOG = Logger.getLogger(RabbitDeadLetterQueue.class);

    private final BrokerTopology topology;
    private final MessagingConfig config;
    private final Vertx vertx;
    private final ObjectMapper mapper;
    private final FormerDeadLetterQueue former;

    RabbitDeadLetterQueue(BrokerTopology topology, MessagingConfig config, Vertx vertx, ObjectMapper mapper,
                          FormerDeadLetterQueue former) {
        this.topology = topology;
        this.config = config;
        this.vertx = vertx;
        this.mapper = mapper;
        this.former = former;
    }

    void emptyFormerQueueAtStartup(@Observes StartupEvent event) {
        topology.ready()
                .chain(() -> blocking(() -> {
                    try (Connection connection = connect()) {
                        return former.emptyInto(connection);
                    }
                }))
                .subscribe().with(moved -> { }, failure -> LOG.warnf("The former dead-letter queue %s was not emptied at"
                        + " start (the next look at the dead letters tries again): %s", config.formerDeadLetterQueue(), failure));
    }

    @Override
    public Uni<List<DeadLetter>> peek(int limit) {
        return blocking(() -> {
            try (Connection connection = connect(); Channel channel = connection.createChannel()) {
                moveFormerLetters(connection);
                List<DeadLetter> letters = new ArrayList<>();
                GetResponse message;
                while (letters.size() < limit && (message = channel.basicGet(config.deadLetterQueue(), false)) != null) {
                    letters.add(letter(message));
                }
                return letters;
            }
        });
    }

    @Override
    public Uni<Integer> redrive(Predicate<DeadLetter> chosen) {
        return blocking(() -> {
            try (Connection connection = connect(); Channel channel = connection.createChannel()) {
                moveFormerLetters(connection);
                channel.confirmSelect();
                // A copy the broker confirms but routes nowhere (the work queue is gone) must not cost the original.
                java.util.concurrent.atomic.AtomicBoolean returned = new java.util.concurrent.atomic.AtomicBoolean();
                channel.addReturnListener(back -> returned.set(true));
                // What is there now: messages dead-lettered meanwhile wait for the next call.
                long present = channel.queueDeclarePassive(config.deadLetterQueue()).getMessageCount();
                List<Long> moved = new ArrayList<>();
                GetResponse message;
                for (long seen = 0; seen < present && (message = channel.basicGet(config.deadLetterQueue(), false)) != null; seen++) {
                    if (chosen.test(letter(message))) {
                        channel.basicPublish("", config.queue(), true, fresh(message.getProps()), message.getBody());
                        moved.add(message.getEnvelope().getDeliveryTag());
                    }
                }
                if (!moved.isEmpty()) {
                    channel.waitForConfirmsOrDie(MandatoryPublisher.CONFIRM_TIMEOUT.toMillis());
                    if (returned.get()) {
                        throw new IllegalStateException("the work queue " + config.queue() + " did not take the dead letters"
                                + " (returned); they stay in the dead-letter queue");
                    }
                    for (long tag : moved) {
                        channel.basicAck(tag, false);
                    }
                }
                return moved.size();
            }
        });
    }

    private void moveFormerLetters(Connection connection) {
        try {
            former.emptyInto(connection);
        } catch (Exception failed) {
            LOG.warnf("The former dead-letter queue %s was not emptied (its letters wait there; tried again in a minute): %s",
                    config.formerDeadLetterQueue(), failed.toString());
        }
    }

    private <T> Uni<T> blocking(Callable<T> work) {
        return vertx.executeBlocking(Uni.createFrom().item(() -> {
            try {
                return work.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("The dead-letter queue could not be read: " + e.getMessage(), e);
            }
        }), false);
    }

    private Connection connect() throws Exception {
        return topology.connectionFactory().newConnection(topology.addresses(), "hookfan (dead letters, operator)");
    }

    /** The properties it was dead-lettered with, less what made it a dead letter: a fresh attempt count. */
    private static AMQP.BasicProperties fresh(AMQP.BasicProperties dead) {
        Map<String, Object> headers = new HashMap<>();
        if (dead.getHeaders() != null) {
            dead.getHeaders().forEach((name, value) -> {
                if (!name.startsWith("x-") && !name.startsWith("hookfan-")) {
                    headers.put(name, value);
                }
            });
        }
        return dead.builder().headers(headers).deliveryMode(2).build();
    }

    private DeadLetter letter(GetResponse message) {
        AMQP.BasicProperties properties = message.getProps();
        Map<String, Object> headers = properties.getHeaders() == null ? Map.of() : properties.getHeaders();
        String type = null;
        String organizationId = null;
        try {
            JsonNode body = mapper.readTree(message.getBody());
            type = body != null && body.path("type").isTextual() ? body.get("type").asText() : null;
            organizationId = body != null && body.path("organizationId").isTextual() ? body.get("organizationId").asText() : null;
        } catch (Exception malformed) {
            // A malformed message is dead-lettered for exactly that: its body says nothing.
        }
        Object attempts = headers.get(EventCopies.ATTEMPTS_HEADER);
        return new DeadLetter(properties.getMessageId(), type, organizationId,
                attempts instanceof Number number ? number.intValue() : null,
                headers.get(EventCopies.ERROR_HEADER) == null ? deadLetteredByTheBroker(headers) : headers.get(EventCopies.ERROR_HEADER).toString(),
                instant(headers.get(DEAD_LETTERED_AT_HEADER)));
    }

    /** A queue's dead-letter policy may route here what the broker itself dropped (a delivery limit, a length limit). */
    private static String deadLetteredByTheBroker(Map<String, Object> headers) {
        if (headers.get("x-death") instanceof List<?> deaths && !deaths.isEmpty() && deaths.get(0) instanceof Map<?, ?> death) {
            return "dead-lettered by RabbitMQ: " + death.get("reason") + " in " + death.get("queue");
        }
        return null;
    }

    private static Instant instant(Object header) {
        try {
            return header == null ? null : Instant.parse(header.toString());
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
