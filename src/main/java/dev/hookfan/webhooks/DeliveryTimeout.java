package dev.hookfan.webhooks;

import java.time.Duration;

/** The longest timeout a webhook may set for itself: the service's own, configured with deliveries (which implement this). */
public interface DeliveryTimeout {

    Duration longest();
}
