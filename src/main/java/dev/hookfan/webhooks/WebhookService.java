package dev.hookfan.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookfan.api.ApiException;
import dev.hookfan.api.Cursor;
import dev.hookfan.api.OrganizationIds;
import dev.hookfan.api.Page;
import dev.hookfan.api.Problem;
import dev.hookfan.api.RequestBodies;
import dev.hookfan.api.ValidationException;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * Webhooks and their secrets as their owners see and change them, with the rules of a change: the request's fields
 * ({@link WebhookRequest}), the URL's address vetted, the organization's limit (the sender writes a webhook's health,
 * SecretResealer re-seals secrets). Each change is one transaction, written out rather than annotated because
 * {@link WebhookChanged} must follow the commit: fired before, a concurrent lookup could cache the old state again.
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
    private final WebhookTargets targets;
    private final RequestBodies bodies;
    private final DeliveryTimeout timeout;

    WebhookService(WebhookRepository webhooks, WebhookSecretRepository secrets, WebhookLimits limits, WebhooksConfig config, SecretCipher cipher,
                   PendingDeliveries pending, Event<WebhookChanged> changed, WebhookTargets targets, RequestBodies bodies,
                   DeliveryTimeout timeout) {
        this.targets = targets;
        this.bodies = bodies;
        this.timeout = timeout;
        this.webhooks = webhooks;
        this.secrets = secrets;
        this.limits = limits;
        this.config = config;
        this.cipher = cipher;
        this.pending = pending;
        this.changed = changed;
    }

    /** The new webhook with its secret in plain, the only time it is shown unasked; 409 past the organization's limit. */
    public Uni<WebhookView> create(String organizationId, JsonNode body) {
        // The DNS vetting and the limit's read run before the transaction, so no pooled connection waits on them.
        return Uni.createFrom().item(() -> {
                    OrganizationIds.require(organizationId);
                    return read(body);
                })
                .call(spec -> vet(spec.url()))
                .chain(spec -> limits.maxWebhooks(organizationId).chain(limit -> insertWithin(limit, organizationId, spec)))
                .invoke(created -> announce(organizationId, created.id()));
    }

    /** Inserts unless the organization already has {@code limit} webhooks, counted under its lock (409 then). */
    private Uni<WebhookView> insertWithin(int limit, String organizationId, WebhookSpec spec) {
        return Panache.withTransaction(() -> webhooks.lockOrganization(organizationId)
                .chain(() -> webhooks.countOf(organizationId))
                .invoke(count -> {
                    if (count >= limit) {
                        throw ApiException.conflict("webhook-limit-reached", "Organization " + organizationId
                                + " already has " + count + " webhooks, its limit is " + limit);
                    }
                })
                .chain(() -> insert(organizationId, spec)));
    }

    /** Replaces every writable field (PUT); 409 if the sender disabled the webhook meanwhile. */
    public Uni<WebhookView> replace(String organizationId, String id, JsonNode body) {
        return Uni.createFrom().item(() -> read(body))
                .call(spec -> vet(spec.url()))
                .chain(spec -> update(organizationId, id, current -> spec));
    }

    /** Applies a JSON merge patch (RFC 7396) of the writable fields; a new URL is vetted first. */
    public Uni<WebhookView> patch(String organizationId, String id, JsonNode patch) {
        boolean newUrl = patch != null && patch.path("url").isTextual() && UrlPolicy.problemWith(patch.get("url").asText()).isEmpty();
        return (newUrl ? vet(patch.get("url").asText()) : Uni.createFrom().voidItem())
                .chain(() -> update(organizationId, id, current -> merge(current, patch)));
    }

    private Uni<WebhookView> update(String organizationId, String id, UnaryOperator<WebhookSpec> change) {
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

    /** A page of the organization's webhooks in creation order. */
    @WithSession
    public Uni<Page<WebhookView>> list(String organizationId, Cursor after, int size) {
        return webhooks.page(organizationId, after, size)
                .map(rows -> Cursor.page(rows, size, row -> new Cursor(row.createdAt, row.id), WebhookView::of));
    }

    @WithSession
    public Uni<String> secret(String organizationId, String id) {
        return webhooks.owned(organizationId, id)
                .chain(webhook -> secrets.currentSecret(webhook.id))
                .map(secret -> cipher.open(secret.webhookId, secret.secret));
    }

    private WebhookSpec read(JsonNode body) {
        return bodies.read(body, WebhookRequest.class, WebhookRequest.BODY, request -> request.problems(timeout.longest()))
                .spec();
    }

    /** The patch applied to the current fields; only what the patch itself sets is judged, so old values stay writable. */
    private WebhookSpec merge(WebhookSpec current, JsonNode patch) {
        if (patch == null || !patch.isObject()) {
            throw ValidationException.of("body", WebhookRequest.BODY);
        }
        return bodies.read(WebhookRequest.merged(current, (ObjectNode) patch), WebhookRequest.class, WebhookRequest.BODY,
                request -> request.problems(timeout.longest()), patch::has).spec();
    }

    /** Refuses a URL whose host resolves to an address webhooks may not reach (422 naming url). */
    private Uni<Void> vet(String url) {
        return targets.vet(url).invoke(target -> {
            if (!target.allowed()) {
                LOG.infof("Webhook URL refused: %s", target.refusal());
                throw new ApiException(Problem.unprocessable("unsafe-url", new Problem.FieldError("url", WebhookTargets.REFUSED)));
            }
        }).replaceWithVoid();
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
