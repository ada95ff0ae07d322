package dev.hookfan.portal;

import dev.hookfan.deliveries.DeliveryService;
import dev.hookfan.webhooks.WebhookView;
import io.quarkus.qute.TemplateData;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;

import java.time.Instant;
import java.util.List;

/** The list's rows: each webhook with its health, in one statement for all of them. */
@Singleton
class WebhookHealth {

    @TemplateData
    record Row(String id, String url, String description, String eventTypes, boolean enabled, String disabledReason,
               String failingSince, String lastSuccess) {
    }

    private final DeliveryService deliveries;

    WebhookHealth(DeliveryService deliveries) {
        this.deliveries = deliveries;
    }

    Uni<List<Row>> of(List<WebhookView> webhooks) {
        if (webhooks.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return deliveries.lastDelivered(webhooks.stream().map(WebhookView::id).toList())
                .map(delivered -> webhooks.stream().map(webhook -> {
                    Instant lastSuccess = delivered.get(webhook.id());
                    return new Row(webhook.id(), webhook.url(), webhook.description(), String.join(", ", webhook.eventTypes()),
                            webhook.enabled(), webhook.disabledReason(), PortalFormat.at(webhook.failingSince()),
                            PortalFormat.at(lastSuccess));
                }).toList());
    }
}
