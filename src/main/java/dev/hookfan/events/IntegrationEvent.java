package dev.hookfan.events;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;

/** An integration event as the handlers see it: no broker types, just the contract's fields. */
public record IntegrationEvent(String type, String organizationId, Instant occurredAt, JsonNode data) {

    /** The types Hookfan publishes about itself (hookfan.webhook.disabled, ...) start with this. */
    public static final String OPERATIONAL_PREFIX = "hookfan.";

    /** Whether the type is one of Hookfan's own operational events. */
    public static boolean isOperational(String type) {
        return type != null && type.startsWith(OPERATIONAL_PREFIX);
    }
}
