package dev.hookfan.retention;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** How long finished deliveries and audit entries are kept, and how the purge goes about deleting them. */
@ConfigMapping(prefix = "hookfan.retention")
public interface RetentionConfig {

    /** false keeps everything for ever. */
    @WithDefault("true")
    boolean enabled();

    /**
     * A delivered, failed or cancelled delivery created longer ago than this is deleted, with its attempts. This is
     * also the deduplication window: a message republished after its deliveries were purged is new again.
     */
    @WithDefault("30D")
    Duration deliveries();

    /** An audit entry recorded longer ago than this is deleted. */
    @WithDefault("90D")
    Duration auditEntries();

    /** How often the purge runs. */
    @WithDefault("1M")
    Duration interval();

    /** Rows deleted per statement and transaction; a run goes on, batch after batch, until nothing is left. */
    @WithDefault("1000")
    int batchSize();
}
