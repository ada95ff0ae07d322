package dev.hookfan.deliveries;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

@ConfigMapping(prefix = "hookfan.recovery")
public interface RecoveryConfig {

    /** How far back a bulk recovery may reach ("since" at most this long ago). */
    @WithDefault("14D")
    Duration maxWindow();

    /** Deliveries reopened per statement (each its own short transaction) during a bulk recovery. */
    @WithDefault("500")
    int batchSize();
}
