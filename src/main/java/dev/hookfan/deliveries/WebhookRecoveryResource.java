package dev.hookfan.deliveries;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookfan.api.Problem;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.Map;

@Path("/organizations/{organizationId}/webhooks/{webhookId}/recover")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Deliveries")
public class WebhookRecoveryResource {

    private final ManualSendService manualSends;

    WebhookRecoveryResource(ManualSendService manualSends) {
        this.manualSends = manualSends;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Send every failed delivery of this webhook created in [since, until) again, with the same ids and bodies")
    @RequestBody(content = @Content(schema = @Schema(implementation = RecoverRequest.class)))
    @APIResponse(responseCode = "202", description = "{\"requeued\": N}: reopened and asked for; 0 when none is failed")
    @APIResponse(responseCode = "400", description = "since missing, malformed or older than the window; until not after since",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = "No such webhook in this organization",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = "The webhook is disabled: enable it first",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "429", description = "Over hookfan.delivery.manual-sends-per-minute (a recovery counts as one)",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Uni<Response> recover(@PathParam("organizationId") String organizationId,
                                 @PathParam("webhookId") String webhookId, JsonNode body) {
        return manualSends.recover(organizationId, webhookId, body)
                .map(requeued -> Response.accepted(Map.of("requeued", requeued)).build());
    }
}
