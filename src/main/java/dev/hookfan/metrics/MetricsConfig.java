package dev.hookfan.metrics;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "hookfan.metrics")
public interface MetricsConfig {

    /** Distinct event types a meter is tagged with; the types a publisher sends beyond them count as "other". */
    @WithDefault("100")
    int maxEventTypes();
}
