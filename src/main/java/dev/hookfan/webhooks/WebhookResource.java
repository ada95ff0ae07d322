package dev.hookfan.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookfan.api.Cursor;
import dev.hookfan.api.OrganizationIds;
import dev.hookfan.api.Page;
import dev.hookfan.api.Problem;
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


@Path("/organizations/{organizationId}/webhooks")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Webhooks", description = "Subscriptions of an organization's URLs to event types")
@APIResponse(responseCode = "400", description = "Invalid input; the problem names each field",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "404", description = "No such webhook in this organization",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
public class WebhookResource {

    private static final String MERGE_PATCH = "application/merge-patch+json";

    private final WebhookService webhooks;

    WebhookResource(WebhookService webhooks) {
        this.webhooks = webhooks;
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
        return webhooks.create(organizationId, body)
                .map(created -> Response.created(uri.getAbsolutePathBuilder().path(created.id()).build())
                        .entity(created).build());
    }

    @GET
    @Operation(summary = "List the organization's webhooks in creation order")
    public Uni<Page<WebhookView>> list(@PathParam("organizationId") String organizationId,
                                       @QueryParam("limit") Integer limit, @QueryParam("after") String after) {
        OrganizationIds.require(organizationId);
        int size = Cursor.limit(limit);
        return webhooks.list(organizationId, Cursor.decode(after), size);
    }

    @GET
    @Path("{id}")
    @Operation(summary = "Get one webhook")
    public Uni<WebhookView> get(@PathParam("organizationId") String organizationId, @PathParam("id") String id) {
        return webhooks.get(organizationId, id);
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
        return webhooks.replace(organizationId, id, body);
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
        return webhooks.patch(organizationId, id, patch);
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Delete; pending deliveries are cancelled, the delivery history stays readable")
    @APIResponse(responseCode = "204", description = "Deleted")
    public Uni<Response> delete(@PathParam("organizationId") String organizationId, @PathParam("id") String id) {
        return webhooks.delete(organizationId, id).map(ignored -> Response.noContent().build());
    }

    @GET
    @Path("{id}/secret")
    @Operation(summary = "Get the current signing secret")
    public Uni<WebhookView.SecretView> secret(@PathParam("organizationId") String organizationId, @PathParam("id") String id) {
        return webhooks.secret(organizationId, id).map(WebhookView.SecretView::new);
    }

    @POST
    @Path("{id}/secret/rotate")
    @Operation(summary = "Issue a new secret; the previous one keeps signing for hookfan.webhooks.secret-rotation-grace")
    public Uni<WebhookView.SecretView> rotate(@PathParam("organizationId") String organizationId, @PathParam("id") String id) {
        return webhooks.rotateSecret(organizationId, id).map(WebhookView.SecretView::new);
    }
}
