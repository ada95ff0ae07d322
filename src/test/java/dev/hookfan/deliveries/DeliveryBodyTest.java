package dev.hookfan.deliveries;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookfan.events.IntegrationEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DeliveryBodyTest {

    static final ObjectMapper MAPPER = new ObjectMapper();

    /** How V2 to V12 built the payload they stored on every delivery row (DeliveryPayloads, removed with V13). */
    static String previousSchemasPayload(String deliveryId, IntegrationEvent event, String messageId) throws Exception {
        ObjectNode body = MAPPER.createObjectNode()
                .put("delivery", deliveryId)
                .put("type", event.type())
                .put("organizationId", event.organizationId())
                .put("occurredAt", event.occurredAt() == null ? null : event.occurredAt().toString())
                .put("messageId", messageId);
        body.set("data", event.data());
        return MAPPER.writeValueAsString(body);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"type\":\"organization.member_removed\",\"organizationId\":\"org_123\",\"occurredAt\":\"2026-12-02T10:00:00Z\",\"data\":{\"memberId\":\"m_1\"}}",
            "{\"type\":\"a.b\",\"organizationId\":\"org\"}",
            "{\"type\":\"a.b\",\"organizationId\":\"org\",\"occurredAt\":\"2026-12-02T10:00:00.123456789Z\",\"data\":{\"n\":1.50,\"big\":123456789012345678901234567890,\"e\":1e400,\"neg\":-0.0}}",
            "{\"type\":\"caf\u00e9.\u65e5\u672c\",\"organizationId\":\"org \\\"quoted\\\" \\\\ / \\t\",\"data\":{\"emoji\":\"\ud83d\ude80\",\"ctl\":\"\\u0001\\n\\r\\u007f\\u2028\",\"nested\":{\"data\":{\"data\":[1,null,true,{\"k\":\"v\"}]}}}}",
            "{\"data\":{\"z\":1,\"a\":2,\"m\":{\"y\":[],\"b\":{}}},\"organizationId\":\"o\",\"type\":\"t.u\"}"})
    void should_send_exactly_what_the_previous_schema_stored_for_the_same_event(String message) throws Exception {
        com.fasterxml.jackson.databind.JsonNode root = MAPPER.readTree(message);
        IntegrationEvent event = new IntegrationEvent(root.get("type").asText(), root.get("organizationId").asText(),
                root.hasNonNull("occurredAt") ? java.time.Instant.parse(root.get("occurredAt").asText()) : null,
                root.hasNonNull("data") ? root.get("data") : MAPPER.createObjectNode());
        for (String messageId : new String[]{"3f2504e0-4f89-11d3-9a0c-0305e82c3301", "with \"quotes\" and \u00fcml", null}) {
            String deliveryId = messageId == null ? DeliveryIds.random() : DeliveryIds.derive(messageId, "wh_1");
            String eventBody = DeliveryBody.ofEvent(MAPPER, event, messageId);
            assertEquals(previousSchemasPayload(deliveryId, event, messageId), DeliveryBody.of(deliveryId, eventBody));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"3f2504e0-4f89-11d3-9a0c-0305e82c3301", "3F2504E04F8911D39A0C0305E82C3301", "order-42"})
    void should_derive_one_event_id_per_message_and_organization(String messageId) {
        assertEquals(DeliveryIds.event(messageId, "org_1"), DeliveryIds.event(messageId.toLowerCase(), "org_1"));
        // Publishers choose both strings: moving a colon from one to the other must not reach another event.
        assertEquals(false, DeliveryIds.event(messageId + ":x", "org_1").equals(DeliveryIds.event(messageId, "x:org_1")));
        assertEquals(false, DeliveryIds.event(messageId, "org_1").equals(DeliveryIds.event(messageId, "org_2")));
        assertEquals(32, DeliveryIds.event(messageId, "org_1").length());
    }

    @org.junit.jupiter.api.Test
    void should_derive_the_event_id_as_sha256_of_the_length_prefixed_key() {
        // The same vector V13 computes in SQL for the events it moved: sha256('event:5:org_1:<canonical id>')[0..16].
        assertEquals(java.util.HexFormat.of().formatHex(sha256("event:5:org_1:3f2504e04f8911d39a0c0305e82c3301"), 0, 16),
                DeliveryIds.event("3F2504E0-4F89-11D3-9A0C-0305E82C3301", "org_1"));
    }

    static byte[] sha256(String text) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
