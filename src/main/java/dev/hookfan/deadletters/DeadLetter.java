package dev.hookfan.deadletters;

import io.quarkus.runtime.annotations.RegisterForReflection;

import java.time.Instant;

/**
 * A message in the dead-letter queue as an operator sees it. type and organizationId come from its body when it has
 * them (a malformed message may not); deadLetteredAt is null for messages dead-lettered before it was recorded.
 */
@RegisterForReflection
public record DeadLetter(String messageId, String type, String organizationId, Integer attempts, String error,
                         Instant deadLetteredAt) {
}
