package dev.hookfan.messaging;

import dev.hookfan.sending.OperationalEventPublisher;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.rabbitmq.OutgoingRabbitMQMetadata;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

/**
 * Publishes operational events to the integration-events exchange, persistent and confirmed, routed by their type:
 * any consumer may bind to hookfan.#, and Hookfan's own work queue takes them like any event (so webhooks subscribed to
 * those types receive them). Not mandatory: an event no queue is bound for is nobody's loss.
 */
@Singleton
public class RabbitOperationalEvents implements OperationalEventPublisher {

    private final MutinyEmitter<byte[]> emitter;

    RabbitOperationalEvents(@Channel("operational-events") MutinyEmitter<byte[]> emitter) {
        this.emitter = emitter;
    }

    @Override
    public Uni<Void> publish(String messageId, String type, byte[] body) {
        OutgoingRabbitMQMetadata metadata = OutgoingRabbitMQMetadata.builder()
                .withMessageId(messageId)
                .withType(type)
                .withRoutingKey(type)
                .withContentType("application/json")
                .withDeliveryMode(2)
                .build();
        return emitter.sendMessage(Message.of(body, Metadata.of(metadata)))
                .ifNoItem().after(MandatoryPublisher.CONFIRM_TIMEOUT).failWith(() -> new IllegalStateException(
                        "no publisher confirm for operational event " + messageId + " within " + MandatoryPublisher.CONFIRM_TIMEOUT));
    }
}
