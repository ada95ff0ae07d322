package dev.hookfan.entitlements;

import dev.hookfan.api.OrganizationIds;
import dev.hookfan.webhooks.WebhookLimits;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;

/** An organization's entitlements as its owner may read them: the stored ones, or the defaults until Billing sends some. */
@Singleton
public class EntitlementsService {

    private static final String STORED = "select limits::text, updated_at from organization_entitlements where organization_id = $1";

    private final Pool pool;
    private final WebhookLimits webhookLimits;

    EntitlementsService(Pool pool, WebhookLimits webhookLimits) {
        this.pool = pool;
        this.webhookLimits = webhookLimits;
    }

    public Uni<EntitlementsView> get(String organizationId) {
        OrganizationIds.require(organizationId);
        return pool.preparedQuery(STORED).execute(Tuple.of(organizationId))
                .map(rows -> rows.size() == 0
                        ? new EntitlementsView(organizationId, "{\"maxWebhooks\":" + webhookLimits.fallback() + "}", null)
                        : view(organizationId, rows.iterator().next()));
    }

    private static EntitlementsView view(String organizationId, Row row) {
        return new EntitlementsView(organizationId, row.getString(0), row.getOffsetDateTime(1).toInstant());
    }
}
