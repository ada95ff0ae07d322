package dev.hookfan.webhooks;

import dev.hookfan.api.ApiException;
import dev.hookfan.api.Cursor;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * Webhooks and their secrets as their owners change them (the sender writes a webhook's health, SecretResealer
 * re-seals secrets). Each change is one transaction, written out rather than annotated because {@link WebhookChanged}
 * must follow the commit: fired before, a concurrent lookup could cache the old state again.
 */
@ApplicationScoped
public class WebhookService {

    private static final Logger LOG = Logger.getLogger(WebhookService.class);

    private final WebhookRepository webhooks;
    private final WebhookSecretRepository secrets;
    private final WebhookLimits limits;
    private final WebhooksConfig config;
    private final SecretCipher cipher;
    private final PendingDeliveries pending;
    private final Event<WebhookChanged> changed;

    WebhookService(WebhookRepository webhooks, WebhookSecretRepository secrets, WebhookLimits limits, WebhooksConfig config, SecretCipher cipher,
                   PendingDeliveries pending, Event<WebhookChanged> changed) {
        this.webhooks = webhooks;
        this.secrets = secrets;
        this.limits = limits;
        this.config = config;
        this.cipher = cipher;
        this.pending = pending;
        this.changed = changed;
    }

    /** The new webhook with its secret in plain, the only time it is shown unasked; 409 past the organization's limit. */
    public Uni<WebhookView> create(String organizationId, WebhookSpec spec) {
        // The limit is read before the transaction: a second pooled connection held inside it could starve the pool.
        return limits.maxWebhooks(organizationId)
                .chain(limit -> Panache.withTransaction(() -> webhooks.lockOrganization(organizationId)
                        .chain(() -> webhooks.countOf(organizationId))
                        .invoke(count -> {
                            if (count >= limit) {
                                throw ApiException.conflict("webhook-limit-reached", "Organization " + organizationId
                                        + " already has " + count + " webhooks, its limit is " + limit);
                            }
                        })
                        .chain(() -> insert(organizationId, spec))))
                .invoke(created -> announce(organizationId, created.id()));
    }

    /** Applies a change to the webhook's current fields; 409 if the sender disabled it meanwhile. */
    public Uni<WebhookView> update(String organizationId, String id, UnaryOperator<WebhookSpec> change) {
        return unlessChangedMeanwhile(id, Panache.withTransaction(() -> webhooks.owned(organizationId, id)
                .invoke(webhook -> webhook.apply(change.apply(webhook.spec()), Cursor.now()))
                .map(WebhookView::of)))
                .invoke(() -> announce(organizationId, id));
    }

    /** Deletes the webhook, then cancels its pending deliveries (what this misses, the orphan sweep cancels). */
    public Uni<Void> delete(String organizationId, String id) {
        // By id, not by version: a delete wins over whatever changed the webhook since it was read.
        return Panache.withTransaction(() -> webhooks.owned(organizationId, id)
                        .call(webhook -> webhooks.delete("id", webhook.id)))
                .invoke(() -> announce(organizationId, id))
                .chain(() -> pending.cancel(id, "webhook deleted")
                        .onFailure().invoke(failure -> LOG.warnf("Webhook %s deleted; its pending deliveries are left"
                                + " to the orphan sweep: %s", id, failure.toString()))
                        .onFailure().recoverWithNull());
    }

    /** A new secret in plain; the previous one keeps signing for {@code secret-rotation-grace}. */
    public Uni<String> rotateSecret(String organizationId, String id) {
        Instant now = Cursor.now();
        String plain = SecretGenerator.newSecret();
        return Panache.withTransaction(() -> webhooks.owned(organizationId, id)
                        .call(webhook -> secrets.deleteExpired(webhook.id, now))
                        .call(webhook -> secrets.expireCurrent(webhook.id, now.plus(config.secretRotationGrace())))
                        .call(webhook -> secrets.persist(sealed(webhook.id, plain, now))))
                .invoke(() -> announce(organizationId, id))
                .replaceWith(plain);
    }

    @WithSession
    public Uni<WebhookView> get(String organizationId, String id) {
        return webhooks.owned(organizationId, id).map(WebhookView::of);
    }

    @WithSession
    public Uni<List<Webhook>> page(String organizationId, Cursor after, int size) {
        return webhooks.page(organizationId, after, size);
    }

    @WithSession
    public Uni<String> secret(String organizationId, String id) {
        return webhooks.owned(organizationId, id)
                .chain(webhook -> secrets.currentSecret(webhook.id))
                .map(secret -> cipher.open(secret.webhookId, secret.secret));
    }

    private Uni<WebhookView> insert(String organizationId, WebhookSpec spec) {
        Instant now = Cursor.now();
        Webhook webhook = new Webhook();
        webhook.id = UUID.randomUUID().toString().replace("-", "");
        webhook.organizationId = organizationId;
        webhook.createdAt = now;
        webhook.enabled = spec.enabled();
        webhook.apply(spec, now);
        String plain = SecretGenerator.newSecret();
        return webhooks.persist(webhook)
                .chain(() -> secrets.persist(sealed(webhook.id, plain, now)))
                .map(ignored -> WebhookView.withSecret(webhook, plain));
    }

    private WebhookSecret sealed(String webhookId, String plain, Instant now) {
        WebhookSecret secret = new WebhookSecret();
        secret.webhookId = webhookId;
        secret.secret = cipher.seal(webhookId, plain);
        secret.createdAt = now;
        return secret;
    }

    // This instance forgets at once; the others when the trigger's notification reaches them.
    private void announce(String organizationId, String webhookId) {
        changed.fire(new WebhookChanged(organizationId, webhookId));
    }

    /** The sender disabled the webhook (or another call changed it) between this update's read and its write: 409. */
    private static <T> Uni<T> unlessChangedMeanwhile(String id, Uni<T> update) {
        return update.onFailure(WebhookService::staleVersion).transform(stale -> ApiException.conflict("webhook-changed",
                "Webhook " + id + " changed while this update was made (the service may have disabled it): read it and try again"));
    }

    private static boolean staleVersion(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof org.hibernate.StaleStateException || cause instanceof jakarta.persistence.OptimisticLockException) {
                return true;
            }
        }
        return false;
    }
}
