package dev.hookfan.events;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import jakarta.inject.Singleton;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/** Reads the message contract: {"type", "organizationId", "occurredAt"?, "data"?}. */
@Singleton
public class IntegrationEventParser {

    static final int MAX_FIELD_LENGTH = 255;

    private final ObjectMapper mapper;

    IntegrationEventParser(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    public IntegrationEvent parse(byte[] body) {
        JsonNode root;
        try {
            root = mapper.readTree(body);
        } catch (JacksonException e) {
            throw new MalformedEventException("body is not valid JSON: " + e.getOriginalMessage());
        } catch (java.io.IOException e) {
            throw new MalformedEventException("body could not be read: " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw new MalformedEventException("body must be a JSON object");
        }
        return new IntegrationEvent(
                requiredText(root, "type"),
                requiredText(root, "organizationId"),
                occurredAt(root),
                data(root));
    }

    private static String requiredText(JsonNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            throw new MalformedEventException("'" + field + "' is required");
        }
        if (!node.isTextual() || node.asText().isBlank()) {
            throw new MalformedEventException("'" + field + "' must be a non-empty string");
        }
        if (node.asText().length() > MAX_FIELD_LENGTH) {
            throw new MalformedEventException("'" + field + "' must be at most " + MAX_FIELD_LENGTH + " characters");
        }
        if (hasControlCharacter(node.asText())) {
            // NUL cannot be stored by PostgreSQL, and CR or LF in a type would break every send's headers.
            throw new MalformedEventException("'" + field + "' must not contain control characters (U+0000-U+001F, U+007F)");
        }
        return node.asText();
    }

    public static boolean hasControlCharacter(String text) {
        return text.chars().anyMatch(c -> c < 0x20 || c == 0x7f);
    }

    private static Instant occurredAt(JsonNode root) {
        JsonNode node = root.get("occurredAt");
        if (node == null || node.isNull()) {
            return null;
        }
        try {
            return Instant.parse(node.asText());
        } catch (DateTimeParseException e) {
            throw new MalformedEventException("'occurredAt' must be an ISO-8601 instant such as 2026-12-02T10:00:00Z");
        }
    }

    private static JsonNode data(JsonNode root) {
        JsonNode node = root.get("data");
        if (node == null || node.isNull()) {
            return JsonNodeFactory.instance.objectNode();
        }
        if (!node.isObject()) {
            throw new MalformedEventException("'data' must be a JSON object");
        }
        return node;
    }
}
