package dev.hookfan.retention;

import dev.hookfan.audit.AuditRetention;
import dev.hookfan.deliveries.DeliveryRetention;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Every interval, deletes what has outlived its retention, in bounded batches, each a short transaction of its own, until
 * a batch finds less than a full one. Safe with several instances: one purges deliveries at a time while the others skip,
 * and audit entries locked by one are skipped by the others.
 */
@Singleton
class RetentionPurge {

    private static final Logger LOG = Logger.getLogger(RetentionPurge.class);

    private final RetentionConfig config;
    private final DeliveryRetention deliveries;
    private final AuditRetention audit;
    private final Counter purgedDeliveries;
    private final Counter purgedAttempts;
    private final Counter purgedEvents;
    private final Counter purgedAuditEntries;
    private final AtomicLong oldestFinished = new AtomicLong();

    RetentionPurge(RetentionConfig config, DeliveryRetention deliveries, AuditRetention audit, MeterRegistry metrics) {
        this.config = config;
        this.deliveries = deliveries;
        this.audit = audit;
        this.purgedDeliveries = purged(metrics, "webhook_delivery");
        this.purgedAttempts = purged(metrics, "delivery_attempt");
        this.purgedEvents = purged(metrics, "delivery_event");
        this.purgedAuditEntries = purged(metrics, "audit_entry");
        metrics.gauge("hookfan.deliveries.oldest_finished_seconds", oldestFinished);
    }

    private static Counter purged(MeterRegistry metrics, String table) {
        return metrics.counter("hookfan.retention.purged", "table", table);
    }

    @Scheduled(every = "${hookfan.retention.interval}", delayed = "${hookfan.retention.interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> purge() {
        if (!config.enabled()) {
            return Uni.createFrom().voidItem();
        }
        return untilDone(() -> deliveries.purgeBatch(config.deliveries(), config.batchSize())
                        .invoke(purged -> {
                            purgedDeliveries.increment(purged.deliveries());
                            purgedAttempts.increment(purged.attempts());
                            purgedEvents.increment(purged.events());
                        })
                        .map(purged -> !purged.skipped() && purged.deliveries() >= config.batchSize()))
                .chain(() -> untilDone(() -> audit.purgeBatch(config.auditEntries(), config.batchSize())
                        .invoke(purged -> purgedAuditEntries.increment(purged))
                        .map(purged -> purged >= config.batchSize())))
                .chain(deliveries::oldestFinishedAgeSeconds)
                .invoke(age -> oldestFinished.set(age))
                .onFailure().invoke(failure -> LOG.warnf("Retention purge stopped, it goes on at its next run: %s", failure.toString()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    /** Runs batches one after another while each says there may be more. */
    private static Uni<Void> untilDone(Supplier<Uni<Boolean>> batch) {
        return batch.get().chain(more -> more ? untilDone(batch) : Uni.createFrom().voidItem());
    }
}
