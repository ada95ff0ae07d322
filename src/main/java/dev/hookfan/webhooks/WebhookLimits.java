package dev.hookfan.webhooks;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/** How many webhooks an organization may have: its entitlements' maxWebhooks, else the configured default. */
@ApplicationScoped
public class WebhookLimits {

    private final WebhooksConfig config;

    WebhookLimits(WebhooksConfig config) {
        this.config = config;
    }

    public Uni<Integer> maxWebhooks(String organizationId) {
        return Panache.getSession().chain(session -> session
                .createNativeQuery("select max_webhooks from organization_entitlements where organization_id = ?1", Integer.class)
                .setParameter(1, organizationId)
                .getResultList()
                .map(WebhookLimits::firstOrNull)
                .map(entitled -> entitled != null ? entitled : config.maxPerOrganization()));
    }

    private static Integer firstOrNull(List<Integer> values) {
        return values.isEmpty() ? null : values.get(0);
    }
}
