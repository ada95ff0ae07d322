package dev.hookfan.entitlements;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@Path("/organizations/{organizationId}/entitlements")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Entitlements", description = "The latest limits Billing published for the organization")
public class EntitlementsResource {

    private final EntitlementsService entitlements;

    EntitlementsResource(EntitlementsService entitlements) {
        this.entitlements = entitlements;
    }

    @GET
    @Operation(summary = "The organization's limits, or the defaults with updatedAt null when none were received")
    public Uni<EntitlementsView> get(@PathParam("organizationId") String organizationId) {
        return entitlements.get(organizationId);
    }
}
