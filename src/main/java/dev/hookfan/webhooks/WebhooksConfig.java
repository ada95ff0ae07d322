package dev.hookfan.webhooks;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

@ConfigMapping(prefix = "hookfan.webhooks")
public interface WebhooksConfig {

    /** Webhooks one organization may have, unless its entitlements say otherwise. */
    @WithDefault("100")
    int maxPerOrganization();

    /** How long a rotated-out secret keeps signing, so subscribers can switch without losing deliveries. */
    @WithDefault("24H")
    Duration secretRotationGrace();
}
