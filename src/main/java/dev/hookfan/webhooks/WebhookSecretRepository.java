package dev.hookfan.webhooks;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;

@ApplicationScoped
public class WebhookSecretRepository implements PanacheRepositoryBase<WebhookSecret, Long> {

    public Uni<WebhookSecret> currentSecret(String webhookId) {
        return find("webhookId = ?1 and expiresAt is null order by createdAt desc", webhookId).firstResult();
    }

    /** The current secret starts its grace period: it keeps signing until {@code until}. */
    Uni<Integer> expireCurrent(String webhookId, Instant until) {
        return update("expiresAt = ?1 where webhookId = ?2 and expiresAt is null", until, webhookId);
    }

    Uni<Long> deleteExpired(String webhookId, Instant at) {
        return delete("webhookId = ?1 and expiresAt <= ?2", webhookId, at);
    }
}
