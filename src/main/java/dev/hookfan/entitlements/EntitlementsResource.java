package dev.hookfan.entitlements;

import com.fasterxml.jackson.annotation.JsonRawValue;
import dev.hookfan.api.OrganizationIds;
import dev.hookfan.webhooks.WebhooksConfig;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.time.OffsetDateTime;
import java.time.Instant;
import java.util.List;

@Path("/organizations/{organizationId}/entitlements")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Entitlements", description = "The latest limits Billing published for the organization")
public class EntitlementsResource {

    private final WebhooksConfig webhooks;

    EntitlementsResource(WebhooksConfig webhooks) {
        this.webhooks = webhooks;
    }

    @RegisterForReflection
    public record EntitlementsView(String organizationId, @JsonRawValue String limits, Instant updatedAt) {
    }

    @GET
    @WithSession
    @Operation(summary = "The organization's limits, or the defaults with updatedAt null when none were received")
    public Uni<EntitlementsView> get(@PathParam("organizationId") String organizationId) {
        OrganizationIds.require(organizationId);
        return Panache.getSession().chain(session -> session
                .createNativeQuery("select limits, updated_at from organization_entitlements where organization_id = ?1", Object[].class)
                .setParameter(1, organizationId)
                .getResultList())
                .map(rows -> rows.isEmpty()
                        ? new EntitlementsView(organizationId, "{\"maxWebhooks\":" + webhooks.maxPerOrganization() + "}", null)
                        : view(organizationId, rows));
    }

    private static EntitlementsView view(String organizationId, List<Object[]> rows) {
        Object[] row = rows.get(0);
        Object at = row[1];
        Instant updatedAt = at instanceof OffsetDateTime offset ? offset.toInstant()
                : at instanceof Instant instant ? instant : Instant.parse(at.toString());
        return new EntitlementsView(organizationId, (String) row[0], updatedAt);
    }
}
