package dev.hookfan.deliveries;

import dev.hookfan.api.Problem;
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

@Path("/organizations/{organizationId}/deliveries")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Deliveries", description = "What was sent to which webhook, and how each attempt went")
@APIResponse(responseCode = "404", description = "No such delivery in this organization",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
public class DeliveryResource {

    private final DeliveryService deliveries;
    private final ManualSendService manualSends;

    DeliveryResource(DeliveryService deliveries, ManualSendService manualSends) {
        this.deliveries = deliveries;
        this.manualSends = manualSends;
    }

    @GET
    @Path("{deliveryId}")
    @Operation(summary = "One delivery with its payload and every attempt")
    public Uni<DeliveryView> get(@PathParam("organizationId") String organizationId,
                                 @PathParam("deliveryId") String deliveryId) {
        return deliveries.get(organizationId, deliveryId);
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
        return manualSends.redeliver(organizationId, deliveryId)
                .map(redelivered -> Response.accepted(Map.of("deliveryId", redelivered)).build());
    }
}
