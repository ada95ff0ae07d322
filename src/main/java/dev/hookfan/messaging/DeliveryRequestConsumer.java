package dev.hookfan.messaging;

import dev.hookfan.sending.DeliverySender;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.rabbitmq.IncomingRabbitMQMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * The sender's fast path. The database, not this message, is the source of truth: the message is acked once
 * the send has been started or found unnecessary, and whatever it misses the poller finds.
 */
@ApplicationScoped
public class DeliveryRequestConsumer {

    private static final Logger LOG = Logger.getLogger(DeliveryRequestConsumer.class);

    private final DeliverySender sender;

    DeliveryRequestConsumer(DeliverySender sender) {
        this.sender = sender;
    }

    @Incoming("deliveries")
    public Uni<Void> consume(Message<byte[]> message) {
        String deliveryId = message.getMetadata(IncomingRabbitMQMetadata.class)
                .flatMap(IncomingRabbitMQMetadata::getMessageId)
                .orElse(null);
        Uni<Void> start = deliveryId == null
                ? Uni.createFrom().voidItem().invoke(() -> LOG.warn("Ignoring a delivery request without message_id"))
                : sender.sendIfClaimable(deliveryId)
                .onFailure().invoke(failure -> LOG.warnf("Delivery %s not started now, the poller will retry: %s",
                        deliveryId, failure.toString()))
                .onFailure().recoverWithNull().replaceWithVoid();
        return start.chain(() -> Uni.createFrom().completionStage(message.ack()));
    }
}
