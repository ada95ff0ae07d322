package dev.hookfan.deliveries;

import dev.hookfan.api.Cursor;
import dev.hookfan.api.NotFound;
import dev.hookfan.api.OrganizationIds;
import dev.hookfan.api.Page;
import dev.hookfan.api.ResourceIds;
import dev.hookfan.webhooks.WebhookService;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** What was sent to an organization's webhooks, as its owner may read it: never another organization's delivery. */
@Singleton
public class DeliveryService {

    private final DeliveryRepository deliveries;
    private final WebhookService webhooks;

    DeliveryService(DeliveryRepository deliveries, WebhookService webhooks) {
        this.deliveries = deliveries;
        this.webhooks = webhooks;
    }

    /** One delivery with its payload and every attempt; a 404 alike for a malformed, unknown or another's id. */
    public Uni<DeliveryView> get(String organizationId, String deliveryId) {
        return wellFormed(organizationId, deliveryId)
                .chain(() -> deliveries.findOwned(organizationId, deliveryId))
                .onItem().ifNull().failWith(NotFound::delivery)
                .chain(delivery -> deliveries.attemptsOf(delivery.id()).map(delivery::withAttempts));
    }

    /** A page of the webhook's deliveries, optionally of one status; 404 unless the webhook is the organization's. */
    public Uni<Page<DeliveryView>> ofWebhook(String organizationId, String webhookId, DeliveryStatus status, Cursor after,
                                             int size, boolean newestFirst) {
        return webhooks.get(organizationId, webhookId)
                .chain(webhook -> deliveries.page(webhook.id(), status, after, size, newestFirst))
                .map(rows -> Cursor.page(rows, size, row -> new Cursor(row.createdAt(), row.id()), row -> row));
    }

    /** When each webhook's newest delivered delivery was delivered; absent when none is kept. */
    public Uni<Map<String, Instant>> lastDelivered(List<String> webhookIds) {
        return deliveries.lastDelivered(webhookIds);
    }

    /** A malformed id is as absent as an unknown one. */
    static Uni<Void> wellFormed(String organizationId, String deliveryId) {
        OrganizationIds.require(organizationId);
        if (!ResourceIds.wellFormed(deliveryId)) {
            return Uni.createFrom().failure(NotFound.delivery());
        }
        return Uni.createFrom().voidItem();
    }
}
