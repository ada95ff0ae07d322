package dev.hookfan.messaging;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookfan.deliveries.DeliveryConfig;
import dev.hookfan.sending.DeliverySender;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.rabbitmq.IncomingRabbitMQMetadata;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.reactive.messaging.Acknowledgment;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Flow;

/**
 * The sender's fast path. The database, not this message, is the source of truth: the message is acked once
 * the sends have been started or found unnecessary, and whatever it misses the poller finds. While the sender
 * has no permits, the requests in hand wait: the queue is held back, not drained into the poller's backlog.
 */
@Singleton
public class DeliveryRequestConsumer {

    private static final Logger LOG = Logger.getLogger(DeliveryRequestConsumer.class);

    private final DeliverySender sender;
    private final ObjectMapper mapper;
    private final DeliveryConfig config;

    DeliveryRequestConsumer(DeliverySender sender, ObjectMapper mapper, DeliveryConfig config) {
        this.sender = sender;
        this.mapper = mapper;
        this.config = config;
    }

    /** Many requests in hand at once: their claims share a statement (the sender's permits still bound the sends). */
    @Incoming(ConsumerStart.DELIVERIES)
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    Flow.Subscriber<Message<byte[]>> handleAtOnce() {
        return ConcurrentConsumption.of(ConsumerStart.DELIVERIES, config.requestConcurrency(), this::consume);
    }

    Uni<Void> consume(Message<byte[]> message) {
        List<String> deliveryIds = deliveryIds(message);
        Uni<Void> start = deliveryIds.isEmpty()
                ? Uni.createFrom().voidItem().invoke(() -> LOG.warn("Ignoring a delivery request that names no delivery"))
                : sender.sendWhenPermitted(deliveryIds)
                .onFailure().invoke(failure -> LOG.warnf("Deliveries %s not started now, the poller will retry: %s",
                        deliveryIds, failure.toString()))
                .onFailure().recoverWithNull().replaceWithVoid();
        return start.chain(() -> Uni.createFrom().completionStage(message.ack()));
    }

    /** The body's deliveryIds; a request of an earlier version names its one delivery in message_id only. */
    private List<String> deliveryIds(Message<byte[]> message) {
        List<String> ids = new ArrayList<>();
        try {
            JsonNode listed = mapper.readTree(message.getPayload()).path("deliveryIds");
            listed.forEach(id -> {
                if (id.isTextual()) {
                    ids.add(id.asText());
                }
            });
        } catch (Exception unreadable) {
            LOG.debugf("Delivery request body not readable, using its message_id: %s", unreadable.toString());
        }
        if (ids.isEmpty()) {
            message.getMetadata(IncomingRabbitMQMetadata.class).flatMap(IncomingRabbitMQMetadata::getMessageId).ifPresent(ids::add);
        }
        return ids;
    }
}
