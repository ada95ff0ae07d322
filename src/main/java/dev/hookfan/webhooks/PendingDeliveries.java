package dev.hookfan.webhooks;

import io.smallrye.mutiny.Uni;

/** What becomes of a deleted webhook's unsent deliveries; implemented where delivery state is written (sending). */
public interface PendingDeliveries {

    /** Cancels the webhook's pending deliveries, keeping them and their attempts readable. */
    Uni<Void> cancel(String webhookId, String reason);
}
