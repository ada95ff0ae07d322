package dev.hookfan.entitlements;

import com.fasterxml.jackson.annotation.JsonRawValue;
import dev.hookfan.api.OrganizationIds;
import dev.hookfan.webhooks.WebhooksConfig;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.time.Instant;

@Path("/organizations/{organizationId}/entitlements")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Entitlements", description = "The latest limits Billing published for the organization")
public class EntitlementsResource {

    private static final String STORED = "select limits::text, updated_at from organization_entitlements where organization_id = $1";

    private final Pool pool;
    private final WebhooksConfig webhooks;

    EntitlementsResource(Pool pool, WebhooksConfig webhooks) {
        this.pool = pool;
        this.webhooks = webhooks;
    }

    @RegisterForReflection
    public record EntitlementsView(String organizationId, @JsonRawValue String limits, Instant updatedAt) {
    }

    @GET
    @Operation(summary = "The organization's limits, or the defaults with updatedAt null when none were received")
    public Uni<EntitlementsView> get(@PathParam("organizationId") String organizationId) {
        OrganizationIds.require(organizationId);
        return pool.preparedQuery(STORED).execute(Tuple.of(organizationId))
                .map(rows -> rows.size() == 0
                        ? new EntitlementsView(organizationId, "{\"maxWebhooks\":" + webhooks.maxPerOrganization() + "}", null)
                        : view(organizationId, rows.iterator().next()));
    }

    private static EntitlementsView view(String organizationId, Row row) {
        return new EntitlementsView(organizationId, row.getString(0), row.getOffsetDateTime(1).toInstant());
    }
}
