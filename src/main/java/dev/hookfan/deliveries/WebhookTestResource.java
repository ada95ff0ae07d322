package dev.hookfan.deliveries;

import dev.hookfan.api.Problem;
import io.smallrye.mutiny.Uni;
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

@Path("/organizations/{organizationId}/webhooks/{webhookId}/test")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Webhooks")
public class WebhookTestResource {

    private final ManualSendService manualSends;

    WebhookTestResource(ManualSendService manualSends) {
        this.manualSends = manualSends;
    }

    @POST
    @Operation(summary = "Queue a webhook.test event to this webhook alone")
    @APIResponse(responseCode = "202", description = "Queued; the delivery id is random, as there is no message")
    @APIResponse(responseCode = "409", description = "The webhook is disabled: a test would wait until it is enabled",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "429", description = "Over hookfan.delivery.manual-sends-per-minute; Retry-After says when to ask again",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Uni<Response> test(@PathParam("organizationId") String organizationId, @PathParam("webhookId") String webhookId) {
        return manualSends.test(organizationId, webhookId)
                .map(deliveryId -> Response.accepted(Map.of("deliveryId", deliveryId)).build());
    }
}
