package dev.hookfan.webhooks;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/** How many webhooks an organization may have: its entitlements' maxWebhooks, else the configured default. */
@ApplicationScoped
public class WebhookLimits {

    private static final String ENTITLED = "select max_webhooks from organization_entitlements where organization_id = $1";

    private final Pool pool;
    private final WebhooksConfig config;

    WebhookLimits(Pool pool, WebhooksConfig config) {
        this.pool = pool;
        this.config = config;
    }

    public Uni<Integer> maxWebhooks(String organizationId) {
        return pool.preparedQuery(ENTITLED).execute(Tuple.of(organizationId))
                .map(rows -> {
                    Integer entitled = rows.size() == 0 ? null : rows.iterator().next().getInteger("max_webhooks");
                    return entitled != null ? entitled : fallback();
                });
    }

    /** The limit of an organization whose entitlements say none. */
    public int fallback() {
        return config.maxPerOrganization();
    }
}
