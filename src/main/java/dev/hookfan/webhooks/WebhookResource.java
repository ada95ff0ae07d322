package dev.hookfan.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookfan.api.ApiException;
import dev.hookfan.api.Cursor;
import dev.hookfan.api.OrganizationIds;
import dev.hookfan.api.Page;
import dev.hookfan.api.Problem;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.core.Context;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.logging.Logger;

import java.util.UUID;

@Path("/organizations/{organizationId}/webhooks")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Webhooks", description = "Subscriptions of an organization's URLs to event types")
@APIResponse(responseCode = "400", description = "Invalid input; the problem names each field",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "404", description = "No such webhook in this organization",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
public class WebhookResource {

    private static final String MERGE_PATCH = "application/merge-patch+json";
    private static final Logger LOG = Logger.getLogger(WebhookResource.class);

    private final WebhookRepository webhooks;
    private final WebhookLimits limits;
    private final WebhooksConfig config;
    private final WebhookTargets targets;
    private final SecretCipher cipher;
    private final WebhookDirectory directory;
    private final java.time.Duration maxTimeout;

    WebhookResource(WebhookRepository webhooks, WebhookLimits limits, WebhooksConfig config, WebhookTargets targets,
                    SecretCipher cipher, WebhookDirectory directory, dev.hookfan.deliveries.DeliveryConfig delivery) {
        this.maxTimeout = delivery.timeout();
        this.directory = directory;
        this.cipher = cipher;
        this.webhooks = webhooks;
        this.limits = limits;
        this.config = config;
        this.targets = targets;
    }

    /** Refuses a URL whose host resolves to an address webhooks may not reach (422 naming url). */
    private Uni<WebhookSpec> safe(WebhookSpec spec) {
        return vet(spec.url()).replaceWith(spec);
    }

    private Uni<Void> vet(String url) {
        return targets.vet(url).invoke(target -> {
            if (!target.allowed()) {
                LOG.infof("Webhook URL refused: %s", target.refusal());
                throw new ApiException(Problem.unprocessable("unsafe-url", new Problem.FieldError("url", WebhookTargets.REFUSED)));
            }
        }).replaceWithVoid();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Subscribe a URL; the response carries the signing secret")
    @RequestBody(content = @Content(schema = @Schema(implementation = WebhookRequest.class)))
    @APIResponse(responseCode = "201", description = "Created, with its secret",
            content = @Content(schema = @Schema(implementation = WebhookView.class)))
    @APIResponse(responseCode = "422", description = "The URL's host resolves to an address webhooks may not reach",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = "The organization has reached its webhook limit",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Uni<Response> create(@PathParam("organizationId") String organizationId, JsonNode body, @Context UriInfo uri) {
        OrganizationIds.require(organizationId);
        WebhookSpec spec = WebhookRequests.full(body, maxTimeout);
        // The DNS vetting runs before the transaction, so no pooled connection waits on a resolver.
        return safe(spec).chain(() -> Panache.withTransaction(() -> webhooks.lockOrganization(organizationId)
                // One session, so one statement at a time: no Uni.combine here.
                .chain(() -> limits.maxWebhooks(organizationId))
                .call(limit -> webhooks.countOf(organizationId).invoke(count -> {
                    if (count >= limit) {
                        throw ApiException.conflict("webhook-limit-reached", "Organization " + organizationId
                                + " already has " + count + " webhooks, its limit is " + limit);
                    }
                }))
                .chain(() -> insert(organizationId, spec))))
                .invoke(() -> directory.drop(organizationId))
                .map(created -> Response.created(uri.getAbsolutePathBuilder().path(created.id()).build())
                        .entity(created).build());
    }

    private Uni<WebhookView> insert(String organizationId, WebhookSpec spec) {
        var now = Cursor.now();
        Webhook webhook = new Webhook();
        webhook.id = UUID.randomUUID().toString().replace("-", "");
        webhook.organizationId = organizationId;
        webhook.createdAt = now;
        webhook.enabled = spec.enabled();
        webhook.apply(spec, now);
        String plain = SecretGenerator.newSecret();
        return webhooks.persist(webhook)
                .chain(() -> sealed(webhook.id, plain, now).persist())
                .map(ignored -> WebhookView.withSecret(webhook, plain));
    }

    @GET
    @WithSession
    @Operation(summary = "List the organization's webhooks in creation order")
    public Uni<Page<WebhookView>> list(@PathParam("organizationId") String organizationId,
                                       @QueryParam("limit") Integer limit, @QueryParam("after") String after) {
        OrganizationIds.require(organizationId);
        int size = Cursor.limit(limit);
        return webhooks.page(organizationId, Cursor.decode(after), size)
                .map(rows -> Cursor.page(rows, size, row -> new Cursor(row.createdAt, row.id), WebhookView::of));
    }

    @GET
    @Path("{id}")
    @WithSession
    @Operation(summary = "Get one webhook")
    public Uni<WebhookView> get(@PathParam("organizationId") String organizationId, @PathParam("id") String id) {
        return owned(organizationId, id).map(WebhookView::of);
    }

    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Replace url, eventTypes, description, enabled, rateLimit, timeout and headers")
    @APIResponse(responseCode = "409", description = "The webhook changed (e.g. the service disabled it) while this update was made",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @RequestBody(content = @Content(schema = @Schema(implementation = WebhookRequest.class)))
    public Uni<WebhookView> replace(@PathParam("organizationId") String organizationId, @PathParam("id") String id,
                                    JsonNode body) {
        WebhookSpec spec = WebhookRequests.full(body, maxTimeout);
        return safe(spec).chain(() -> unlessChangedMeanwhile(id, Panache.withTransaction(() -> owned(organizationId, id)
                .invoke(webhook -> webhook.apply(spec, Cursor.now()))
                .map(WebhookView::of))))
                .invoke(() -> directory.drop(organizationId));
    }

    @PATCH
    @Path("{id}")
    @Consumes({MediaType.APPLICATION_JSON, MERGE_PATCH})
    @Operation(summary = "Change some fields (JSON merge patch), e.g. {\"enabled\": false}")
    @APIResponse(responseCode = "409", description = "The webhook changed (e.g. the service disabled it) while this update was made",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @RequestBody(content = @Content(mediaType = MERGE_PATCH, schema = @Schema(implementation = WebhookRequest.class)))
    public Uni<WebhookView> patch(@PathParam("organizationId") String organizationId, @PathParam("id") String id,
                                  JsonNode patch) {
        boolean newUrl = patch != null && patch.path("url").isTextual() && UrlPolicy.problemWith(patch.get("url").asText()).isEmpty();
        Uni<Void> vetted = newUrl ? vet(patch.get("url").asText()) : Uni.createFrom().voidItem();
        return vetted.chain(() -> unlessChangedMeanwhile(id, Panache.withTransaction(() -> owned(organizationId, id)
                .invoke(webhook -> webhook.apply(WebhookRequests.merge(webhook, patch, maxTimeout), Cursor.now()))
                .map(WebhookView::of))))
                .invoke(() -> directory.drop(organizationId));
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Delete; pending deliveries are cancelled, the delivery history stays readable")
    @APIResponse(responseCode = "204", description = "Deleted")
    public Uni<Response> delete(@PathParam("organizationId") String organizationId, @PathParam("id") String id) {
        return Panache.withTransaction(() -> owned(organizationId, id)
                .call(webhook -> Panache.getSession().chain(session -> session
                        .createNativeQuery("update webhook_delivery set status = 'cancelled', next_attempt_at = null,"
                                + " last_error = 'webhook deleted' where webhook_id = ?1 and status = 'pending'")
                        .setParameter(1, webhook.id)
                        .executeUpdate()))
                // By id, not by version: a delete wins over whatever changed the webhook since it was read.
                .call(webhook -> webhooks.delete("id", webhook.id)))
                // This instance forgets at once; the others when the trigger's notification reaches them.
                .invoke(() -> directory.drop(organizationId))
                .map(ignored -> Response.noContent().build());
    }

    @GET
    @Path("{id}/secret")
    @WithSession
    @Operation(summary = "Get the current signing secret")
    public Uni<WebhookView.SecretView> secret(@PathParam("organizationId") String organizationId, @PathParam("id") String id) {
        return owned(organizationId, id)
                .chain(webhook -> webhooks.currentSecret(webhook.id))
                .map(secret -> new WebhookView.SecretView(cipher.open(secret.webhookId, secret.secret)));
    }

    @POST
    @Path("{id}/secret/rotate")
    @WithTransaction
    @Operation(summary = "Issue a new secret; the previous one keeps signing for hookfan.webhooks.secret-rotation-grace")
    public Uni<WebhookView.SecretView> rotate(@PathParam("organizationId") String organizationId, @PathParam("id") String id) {
        var now = Cursor.now();
        String plain = SecretGenerator.newSecret();
        return owned(organizationId, id)
                .call(webhook -> webhooks.deleteExpiredSecrets(webhook.id, now))
                .call(webhook -> WebhookSecret.update("expiresAt = ?1 where webhookId = ?2 and expiresAt is null",
                        now.plus(config.secretRotationGrace()), webhook.id))
                .chain(webhook -> sealed(webhook.id, plain, now).persist())
                .map(ignored -> new WebhookView.SecretView(plain));
    }

    /** The sender disabled the webhook (or another call changed it) between this update's read and its write: 409. */
    private static <T> Uni<T> unlessChangedMeanwhile(String id, Uni<T> update) {
        return update.onFailure(WebhookResource::staleVersion).transform(stale -> ApiException.conflict("webhook-changed",
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

    private Uni<Webhook> owned(String organizationId, String id) {
        return webhooks.owned(organizationId, id);
    }

    private WebhookSecret sealed(String webhookId, String plain, java.time.Instant now) {
        WebhookSecret secret = new WebhookSecret();
        secret.webhookId = webhookId;
        secret.secret = cipher.seal(webhookId, plain);
        secret.createdAt = now;
        return secret;
    }
}
