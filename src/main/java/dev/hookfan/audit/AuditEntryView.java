package dev.hookfan.audit;

import com.fasterxml.jackson.annotation.JsonRawValue;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.time.Instant;

@RegisterForReflection
public record AuditEntryView(String id, String organizationId, String sourceMessageId, String eventType,
                             Instant occurredAt, Instant recordedAt, @JsonRawValue String data) {
}
