package dev.hookfan.deliveries;

import dev.hookfan.api.ApiException;
import dev.hookfan.api.NotFound;
import dev.hookfan.api.OrganizationIds;
import dev.hookfan.api.Problem;
import dev.hookfan.webhooks.Webhook;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.Map;
import java.util.regex.Pattern;

@Path("/organizations/{organizationId}/deliveries")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Deliveries", description = "What was sent to which webhook, and how each attempt went")
@APIResponse(responseCode = "404", description = "No such delivery in this organization",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
public class DeliveryResource {

    private static final Pattern DELIVERY_ID = Pattern.compile("[0-9a-f]{32}");

    private final DeliveryRepository deliveries;
    private final DeliveryRequests requests;
    private final ManualSendLimit limit;

    DeliveryResource(DeliveryRepository deliveries, DeliveryRequests requests, ManualSendLimit limit) {
        this.deliveries = deliveries;
        this.requests = requests;
        this.limit = limit;
    }

    @GET
    @Path("{deliveryId}")
    @WithSession
    @Operation(summary = "One delivery with its payload and every attempt")
    public Uni<DeliveryView> get(@PathParam("organizationId") String organizationId,
                                 @PathParam("deliveryId") String deliveryId) {
        return owned(organizationId, deliveryId)
                .chain(delivery -> deliveries.attemptsOf(delivery.id)
                        .map(attempts -> DeliveryView.of(delivery, delivery.payload, attempts)));
    }

    @POST
    @Path("{deliveryId}/redeliver")
    @Operation(summary = "Send the same delivery (same id and payload) again now, as a new attempt")
    @APIResponse(responseCode = "202", description = "Queued for sending")
    @APIResponse(responseCode = "409", description = "The webhook was deleted",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "429", description = "Over hookfan.delivery.manual-sends-per-minute; Retry-After says when to ask again",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Uni<Response> redeliver(@PathParam("organizationId") String organizationId,
                                   @PathParam("deliveryId") String deliveryId) {
        return Uni.createFrom().item(organizationId).invoke(limit::take)
                .chain(() -> reschedule(organizationId, deliveryId))
                .call(delivery -> requests.request(java.util.List.of(
                        new RequestedDelivery(delivery.id, delivery.webhookId, delivery.organizationId))))
                .map(delivery -> Response.accepted(Map.of("deliveryId", delivery.id)).build());
    }

    private Uni<WebhookDelivery> reschedule(String organizationId, String deliveryId) {
        return Panache.withTransaction(() -> owned(organizationId, deliveryId)
                .call(delivery -> Webhook.findById(delivery.webhookId).onItem().ifNull().failWith(() ->
                        ApiException.conflict("webhook-deleted", "The webhook of delivery " + delivery.id + " was deleted")))
                .invoke(delivery -> {
                    delivery.status = DeliveryStatus.pending;
                    delivery.nextAttemptAt = dev.hookfan.api.Cursor.now();
                    delivery.deliveredAt = null;
                }));
    }

    private Uni<WebhookDelivery> owned(String organizationId, String deliveryId) {
        OrganizationIds.require(organizationId);
        if (deliveryId == null || !DELIVERY_ID.matcher(deliveryId).matches()) {
            return Uni.createFrom().failure(NotFound.delivery());
        }
        return deliveries.findOwned(organizationId, deliveryId)
                .onItem().ifNull().failWith(() -> NotFound.delivery());
    }
}
