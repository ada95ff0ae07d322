package dev.hookfan.deliveries;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookfan.events.IntegrationEvent;

/**
 * What a subscriber receives: {@code {"delivery": "<id>", "type", "organizationId", "occurredAt", "messageId",
 * "data"}}. Everything after the delivery id is the same for every delivery of one event, so it is rendered once per
 * event and stored once ({@code delivery_event.body}); a delivery's body is that, behind its own id, built per send.
 */
public final class DeliveryBody {

    private static final String PREFIX = "{\"delivery\":\"";

    private DeliveryBody() {
    }

    /** The body of one delivery: its id is inside because the body is what gets signed. */
    public static String of(String deliveryId, String eventBody) {
        return new StringBuilder(PREFIX.length() + deliveryId.length() + 2 + eventBody.length())
                .append(PREFIX).append(deliveryId).append("\",").append(eventBody).toString();
    }

    /** The event's part, from just after the delivery field: the fields in the contract's order. */
    static String ofEvent(ObjectMapper mapper, IntegrationEvent event, String messageId) {
        ObjectNode fields = mapper.createObjectNode()
                .put("type", event.type())
                .put("organizationId", event.organizationId())
                .put("occurredAt", event.occurredAt() == null ? null : event.occurredAt().toString())
                .put("messageId", messageId);
        fields.set("data", event.data());
        try {
            // '{"type":…}' without its opening brace: a delivery's body puts its own id first.
            return mapper.writeValueAsString(fields).substring(1);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A JSON tree always serialises", e);
        }
    }
}
