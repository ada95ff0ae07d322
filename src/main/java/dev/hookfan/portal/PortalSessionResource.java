package dev.hookfan.portal;

import dev.hookfan.api.OrganizationIds;
import dev.hookfan.api.Problem;
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

import java.time.Instant;

@Path("/organizations/{organizationId}/portal-sessions")
@Tag(name = "Portal")
@Produces(MediaType.APPLICATION_JSON)
public class PortalSessionResource {

    /** The link to hand to the organization's people, and when it stops opening the portal. */
    public record PortalSessionView(String url, Instant expiresAt) {
    }

    private final PortalSessions sessions;
    private final PortalConfig config;

    PortalSessionResource(PortalSessions sessions, PortalConfig config) {
        this.sessions = sessions;
        this.config = config;
    }

    @POST
    @Operation(summary = "A link that opens the web portal for this organization alone, with no other credential, until it expires")
    @APIResponse(responseCode = "201", description = "The link",
            content = @Content(schema = @Schema(implementation = PortalSessionView.class)))
    @APIResponse(responseCode = "401", description = "No valid bearer token",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response create(@PathParam("organizationId") String organizationId) {
        OrganizationIds.require(organizationId);
        PortalSessions.Issued issued = sessions.issue(organizationId);
        String base = config.baseUrl().map(url -> url.replaceAll("/+$", "")).orElse("");
        return Response.status(Response.Status.CREATED)
                .entity(new PortalSessionView(base + PortalPaths.ENTER + "?session=" + issued.token(), issued.expiresAt()))
                .build();
    }
}
