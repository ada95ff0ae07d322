package dev.hookfan.events;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;

/** An integration event as the handlers see it: no broker types, just the contract's fields. */
public record IntegrationEvent(String type, String organizationId, Instant occurredAt, JsonNode data) {
}
