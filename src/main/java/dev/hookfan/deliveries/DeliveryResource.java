package dev.hookfan.deliveries;

import dev.hookfan.api.NotFound;
import dev.hookfan.api.OrganizationIds;
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

import java.util.List;
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
    @Operation(summary = "One delivery with its payload and every attempt")
    public Uni<DeliveryView> get(@PathParam("organizationId") String organizationId,
                                 @PathParam("deliveryId") String deliveryId) {
        return valid(organizationId, deliveryId)
                .chain(() -> deliveries.findOwned(organizationId, deliveryId))
                .onItem().ifNull().failWith(NotFound::delivery)
                .chain(delivery -> deliveries.attemptsOf(delivery.id()).map(delivery::withAttempts));
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
        return valid(organizationId, deliveryId).invoke(() -> limit.take(organizationId))
                .chain(() -> deliveries.reopen(organizationId, deliveryId))
                .onItem().ifNull().failWith(NotFound::delivery)
                .call(delivery -> requests.request(List.of(delivery)))
                .map(delivery -> Response.accepted(Map.of("deliveryId", delivery.id())).build());
    }

    /** A malformed id is as absent as an unknown one. */
    private static Uni<Void> valid(String organizationId, String deliveryId) {
        OrganizationIds.require(organizationId);
        if (deliveryId == null || !DELIVERY_ID.matcher(deliveryId).matches()) {
            return Uni.createFrom().failure(NotFound.delivery());
        }
        return Uni.createFrom().voidItem();
    }
}
