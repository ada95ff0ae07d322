package dev.hookfan.audit;

import dev.hookfan.api.Page;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@Path("/organizations/{organizationId}/audit-entries")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Audit log", description = "One entry per consumed event and organization")
public class AuditResource {

    private final AuditService audit;

    AuditResource(AuditService audit) {
        this.audit = audit;
    }

    @GET
    @Operation(summary = "Audit entries in the order they were recorded, optionally of one type and since an instant")
    public Uni<Page<AuditEntryView>> list(@PathParam("organizationId") String organizationId,
                                          @QueryParam("type") String type, @QueryParam("since") String since,
                                          @QueryParam("limit") Integer limit, @QueryParam("after") String after) {
        return audit.page(organizationId, type, since, limit, after);
    }
}
