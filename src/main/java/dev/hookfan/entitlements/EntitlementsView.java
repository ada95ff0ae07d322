package dev.hookfan.entitlements;

import com.fasterxml.jackson.annotation.JsonRawValue;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.time.Instant;

/** The limits Billing last published for the organization, as received; updatedAt null for the defaults. */
@RegisterForReflection
public record EntitlementsView(String organizationId, @JsonRawValue String limits, Instant updatedAt) {
}
