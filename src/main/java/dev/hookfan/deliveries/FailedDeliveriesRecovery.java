package dev.hookfan.deliveries;

import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;

/**
 * Sends a webhook's failed deliveries of a time window again, each as a redelivery (same id and body): batch by
 * batch, each batch reopened in one short statement and then asked for, so no transaction grows with the window.
 */
@Singleton
class FailedDeliveriesRecovery {

    private final DeliveryRepository deliveries;
    private final DeliveryRequests requests;
    private final int batchSize;

    FailedDeliveriesRecovery(DeliveryRepository deliveries, DeliveryRequests requests, RecoveryConfig config) {
        this.deliveries = deliveries;
        this.requests = requests;
        this.batchSize = config.batchSize();
    }

    /** Answers how many deliveries were reopened; none twice, since a reopened delivery is no longer failed. */
    Uni<Integer> recover(String webhookId, RecoveryWindow window) {
        return nextBatch(webhookId, window, 0);
    }

    private Uni<Integer> nextBatch(String webhookId, RecoveryWindow window, int soFar) {
        return deliveries.reopenFailed(webhookId, window.since(), window.until(), batchSize)
                .call(reopened -> reopened.isEmpty() ? Uni.createFrom().voidItem() : requests.request(reopened))
                .chain(reopened -> reopened.size() < batchSize
                        ? Uni.createFrom().item(soFar + reopened.size())
                        : nextBatch(webhookId, window, soFar + reopened.size()));
    }
}
