package dev.hookfan.deliveries;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookfan.events.IntegrationEvent;
import jakarta.inject.Singleton;

/** The body a subscriber receives, fixed at creation; the delivery id is inside because the body is what gets signed. */
@Singleton
class DeliveryPayloads {

    private final ObjectMapper mapper;

    DeliveryPayloads(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    String of(String deliveryId, IntegrationEvent event, String messageId) {
        ObjectNode body = mapper.createObjectNode()
                .put("delivery", deliveryId)
                .put("type", event.type())
                .put("organizationId", event.organizationId())
                .put("occurredAt", event.occurredAt() == null ? null : event.occurredAt().toString())
                .put("messageId", messageId);
        body.set("data", event.data());
        try {
            return mapper.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A JSON tree always serialises", e);
        }
    }
}
