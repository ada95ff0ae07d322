package dev.hookfan.deliveries;

import dev.hookfan.webhooks.DeliveryTimeout;
import jakarta.inject.Singleton;

import java.time.Duration;

/** hookfan.delivery.timeout, for the webhooks that may not wait longer. */
@Singleton
class ConfiguredDeliveryTimeout implements DeliveryTimeout {

    private final DeliveryConfig config;

    ConfiguredDeliveryTimeout(DeliveryConfig config) {
        this.config = config;
    }

    @Override
    public Duration longest() {
        return config.timeout();
    }
}
