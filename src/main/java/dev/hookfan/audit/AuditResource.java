package dev.hookfan.audit;

import dev.hookfan.api.Cursor;
import dev.hookfan.api.OrganizationIds;
import dev.hookfan.api.Page;
import dev.hookfan.api.ValidationException;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.time.Instant;
import java.time.format.DateTimeParseException;

@Path("/organizations/{organizationId}/audit-entries")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Audit log", description = "One entry per consumed event and organization")
public class AuditResource {

    private final AuditLog log;

    AuditResource(AuditLog log) {
        this.log = log;
    }

    @GET
    @Operation(summary = "Audit entries in the order they were recorded, optionally of one type and since an instant")
    public Uni<Page<AuditEntryView>> list(@PathParam("organizationId") String organizationId,
                                          @QueryParam("type") String type, @QueryParam("since") String since,
                                          @QueryParam("limit") Integer limit, @QueryParam("after") String after) {
        OrganizationIds.require(organizationId);
        int size = Cursor.limit(limit);
        Cursor cursor = Cursor.decode(after);
        Instant from = since == null || since.isEmpty() ? null : instant(since);
        return log.page(organizationId, type == null || type.isEmpty() ? null : type, from, cursor, size + 1)
                .map(rows -> Cursor.page(rows, size, row -> new Cursor(row.recordedAt(), row.id()), row -> row));
    }

    private static Instant instant(String since) {
        try {
            return Instant.parse(since);
        } catch (DateTimeParseException e) {
            throw ValidationException.of("since", "must be an ISO-8601 instant such as 2026-12-02T10:00:00Z");
        }
    }
}
