package dev.hookfan.sending;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.concurrent.atomic.AtomicLong;

/** Gauges of what is still to send: the pending count and the oldest pending delivery's age. */
@ApplicationScoped
class DeliveryBacklog {

    /** The pending gauges are an upper bound for alerting, not a live count: refreshing them costs a scan. */
    static final String GAUGE_INTERVAL = "15s";

    /**
     * Due rows, through the due index, and the deliveries that unswept fan-outs name, read off their sweep rows
     * without looking each up: those may include some already sent, so the count is an upper bound.
     */
    private static final String QUERY = "select (due.pending + fresh.pending)::bigint as pending,"
            + " coalesce(extract(epoch from now() - least(due.oldest, fresh.oldest)), 0)::bigint as oldest_seconds from"
            + " (select count(*) as pending, min(created_at) as oldest from webhook_delivery"
            + " where status = 'pending' and next_attempt_at is not null) as due,"
            + " (select coalesce(sum(cardinality(delivery_ids)), 0) as pending, min(created_at) as oldest from delivery_sweep) as fresh";

    private final Pool pool;
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong oldestSeconds = new AtomicLong();

    DeliveryBacklog(Pool pool, MeterRegistry metrics) {
        this.pool = pool;
        metrics.gauge("hookfan.deliveries.pending", pending);
        metrics.gauge("hookfan.deliveries.oldest_pending_seconds", oldestSeconds);
    }

    @Scheduled(every = GAUGE_INTERVAL, concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> measure() {
        return pool.query(QUERY).execute()
                .invoke(rows -> {
                    Row row = rows.iterator().next();
                    pending.set(row.getLong("pending"));
                    oldestSeconds.set(row.getLong("oldest_seconds"));
                })
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }
}
