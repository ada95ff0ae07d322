package dev.hookfan.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookfan.deliveries.DeliveryConfig;
import dev.hookfan.deliveries.RequestedDelivery;
import dev.hookfan.sending.DeliverySender;
import dev.hookfan.tracing.Tracing;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.rabbitmq.IncomingRabbitMQMetadata;
import io.vertx.core.Vertx;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.reactive.messaging.Acknowledgment;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Flow;

/**
 * The sender's fast path. The database, not this message, is the source of truth: the message is acked once its
 * deliveries are queued in the sender's scheduler (or, past its bound, left due in the database), and whatever a lost
 * message or a crash misses the poller finds. Requests never wait behind one another's webhooks; they wait, unread
 * and in the broker, only while the instance has no room to start any send.
 */
@Singleton
public class DeliveryRequestConsumer {

    private static final Logger LOG = Logger.getLogger(DeliveryRequestConsumer.class);

    private final DeliverySender sender;
    private final ObjectMapper mapper;
    private final DeliveryConfig config;
    private final ConsumerStreams streams;
    private final Tracing tracing;
    private final String queue;
    private final Vertx vertx;

    DeliveryRequestConsumer(DeliverySender sender, ObjectMapper mapper, DeliveryConfig config, ConsumerStreams streams,
                            Tracing tracing, MessagingConfig messaging, Vertx vertx) {
        this.vertx = vertx;
        this.tracing = tracing;
        this.queue = messaging.deliveriesQueue();
        this.sender = sender;
        this.streams = streams;
        this.mapper = mapper;
        this.config = config;
    }

    /** Many requests in hand at once; queuing them is quick, so the bound only smooths bursts. A request names ids
     * only (a batch's deliveries and their webhooks), so the count alone bounds their bytes. */
    @Incoming(ConsumerStart.DELIVERIES)
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    Flow.Subscriber<Message<byte[]>> handleAtOnce() {
        return ConcurrentConsumption.of(ConsumerStart.DELIVERIES, config.requestConcurrency(),
                new BytesInHand(Long.MAX_VALUE), this::consume, streams, vertx);
    }

    Uni<Void> consume(Message<byte[]> message) {
        if (!tracing.on()) {
            return queue(message);
        }
        IncomingRabbitMQMetadata metadata = message.getMetadata(IncomingRabbitMQMetadata.class).orElseThrow();
        return tracing.within(MessagingSpans.process(tracing, queue, tracing.extract(metadata.getHeaders())),
                span -> queue(message));
    }

    private Uni<Void> queue(Message<byte[]> message) {
        return sender.room().chain(() -> queueNow(message));
    }

    private Uni<Void> queueNow(Message<byte[]> message) {
        List<RequestedDelivery> deliveries = requested(message);
        Uni<Void> queued = deliveries.isEmpty()
                ? Uni.createFrom().voidItem().invoke(() -> LOG.warn("Ignoring a delivery request that names no delivery"))
                : sender.requested(deliveries);
        return queued
                .onFailure().invoke(failure -> LOG.warnf("Deliveries %s not queued now, the poller will find them: %s",
                        deliveries.stream().map(RequestedDelivery::id).toList(), failure.toString()))
                .onFailure().recoverWithNull()
                .chain(() -> Uni.createFrom().completionStage(message.ack()));
    }

    /** The deliveries a request names with their webhooks; none if it is unreadable. */
    private List<RequestedDelivery> requested(Message<byte[]> message) {
        List<RequestedDelivery> deliveries = new ArrayList<>();
        try {
            mapper.readTree(message.getPayload()).path("deliveries").forEach(entry -> {
                String id = entry.path("id").asText(null);
                String webhookId = entry.path("webhookId").asText(null);
                String organizationId = entry.path("organizationId").asText(null);
                if (id != null && webhookId != null && organizationId != null) {
                    deliveries.add(new RequestedDelivery(id, webhookId, organizationId));
                }
            });
        } catch (Exception unreadable) {
            LOG.debugf("Delivery request body not readable: %s", unreadable.toString());
        }
        return deliveries;
    }
}
