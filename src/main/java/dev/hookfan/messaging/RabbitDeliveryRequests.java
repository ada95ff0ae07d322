package dev.hookfan.messaging;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.hookfan.deliveries.DeliveryRequests;
import dev.hookfan.deliveries.RequestedDelivery;
import dev.hookfan.tracing.Tracing;
import io.opentelemetry.context.Context;
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
 * the body lists the deliveries with their webhooks, so the sender queues them without a lookup; message_id is the
 * first of them.
 */
@Singleton
public class RabbitDeliveryRequests implements DeliveryRequests {

    static final String TYPE = "webhook.delivery_requested";

    private final MutinyEmitter<byte[]> emitter;
    private final Tracing tracing;
    private final String queue;

    RabbitDeliveryRequests(@Channel("delivery-requests") MutinyEmitter<byte[]> emitter, Tracing tracing, MessagingConfig config) {
        this.emitter = emitter;
        this.tracing = tracing;
        this.queue = config.deliveriesQueue();
    }

    @Override
    public Uni<Void> request(List<RequestedDelivery> deliveries) {
        if (deliveries.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        if (!tracing.on()) {
            return publish(deliveries, OutgoingRabbitMQMetadata.builder());
        }
        Context parent = Context.current();
        return tracing.within(MessagingSpans.publish(tracing, queue, parent)
                        .setAttribute("messaging.batch.message_count", deliveries.size()),
                span -> {
                    OutgoingRabbitMQMetadata.Builder metadata = OutgoingRabbitMQMetadata.builder();
                    // The span itself, not whatever is current: off a duplicated Vert.x context nothing is kept current.
                    tracing.inject(parent.with(span), metadata::withHeader);
                    return publish(deliveries, metadata);
                });
    }

    private Uni<Void> publish(List<RequestedDelivery> deliveries, OutgoingRabbitMQMetadata.Builder builder) {
        OutgoingRabbitMQMetadata metadata = builder
                .withMessageId(deliveries.get(0).id())
                .withType(TYPE)
                .withContentType("application/json")
                .withDeliveryMode(2)
                .build();
        return emitter.sendMessage(Message.of(body(deliveries), Metadata.of(metadata)))
                // A confirm lost with its connection never arrives: fail, so the message is retried (and the sweep sends).
                .ifNoItem().after(MandatoryPublisher.CONFIRM_TIMEOUT).failWith(() -> new IllegalStateException(
                        "no publisher confirm for the delivery request of " + deliveries.size() + " deliveries within "
                                + MandatoryPublisher.CONFIRM_TIMEOUT));
    }

    /** {"type", "deliveries": [{"id", "webhookId", "organizationId"}...]}: the sender queues each under its webhook without a lookup. */
    static byte[] body(List<RequestedDelivery> deliveries) {
        StringBuilder json = new StringBuilder(deliveries.size() * 160).append("{\"type\":\"").append(TYPE).append("\",\"deliveries\":[");
        for (int i = 0; i < deliveries.size(); i++) {
            RequestedDelivery delivery = deliveries.get(i);
            // Delivery and webhook ids are hex digits only; an organization id may need escaping.
            json.append(i == 0 ? "" : ",").append("{\"id\":\"").append(delivery.id()).append("\",\"webhookId\":\"")
                    .append(delivery.webhookId()).append("\",\"organizationId\":\"")
                    .append(JsonStringEncoder.getInstance().quoteAsString(delivery.organizationId())).append("\"}");
        }
        return json.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }
}
