package dev.hookfan.messaging;

import dev.hookfan.deliveries.DeliveryRequests;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.rabbitmq.OutgoingRabbitMQMetadata;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Publishes one persistent, confirmed webhook.delivery_requested message per call (the fan-out calls once per batch):
 * the body lists the delivery ids, so the sender claims them in one statement; message_id is the first of them.
 */
@Singleton
public class RabbitDeliveryRequests implements DeliveryRequests {

    static final String TYPE = "webhook.delivery_requested";

    private final MutinyEmitter<byte[]> emitter;

    RabbitDeliveryRequests(@Channel("delivery-requests") MutinyEmitter<byte[]> emitter) {
        this.emitter = emitter;
    }

    @Override
    public Uni<Void> request(List<String> deliveryIds) {
        if (deliveryIds.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        OutgoingRabbitMQMetadata metadata = OutgoingRabbitMQMetadata.builder()
                .withMessageId(deliveryIds.get(0))
                .withType(TYPE)
                .withContentType("application/json")
                .withDeliveryMode(2)
                .build();
        // Delivery ids are hex digits only, so they need no JSON escaping.
        byte[] body = ("{\"type\":\"" + TYPE + "\",\"deliveryIds\":[\"" + String.join("\",\"", deliveryIds) + "\"]}")
                .getBytes(StandardCharsets.UTF_8);
        return emitter.sendMessage(Message.of(body, Metadata.of(metadata)))
                // A confirm lost with its connection never arrives: fail, so the message is retried (and the sweep sends).
                .ifNoItem().after(EventCopies.CONFIRM_TIMEOUT).failWith(() -> new IllegalStateException(
                        "no publisher confirm for the delivery request of " + deliveryIds.size() + " deliveries within "
                                + EventCopies.CONFIRM_TIMEOUT));
    }
}
