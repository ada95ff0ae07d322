package dev.hookfan.deliveries;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;

import java.time.Duration;

/**
 * Deletes finished deliveries (delivered, failed, cancelled) older than their retention, with their attempts, and
 * each event once no delivery refers to it any more. A pending delivery is never deleted, whatever its age.
 */
@Singleton
public class DeliveryRetention {

    /** What one batch deleted; {@code skipped} when another instance was purging at that moment. */
    public record Purged(long deliveries, long attempts, long events, boolean skipped) {
    }

    /** One purger at a time across instances, and nobody waits for it: the others skip this round. */
    private static final String ONLY_PURGER = "select pg_try_advisory_xact_lock(hashtext('hookfan.retention'), 1) as mine";
    /**
     * A batch in creation order, through its own index, skipping rows a sender or a redelivery holds. The events'
     * counts go down in the same statement; an event that reaches 0 is deleted by the next one, still under the
     * row lock this one took, so a fan-out adding a delivery to it meanwhile waits and then stores it afresh.
     */
    private static final String PURGE = "with gone as (delete from webhook_delivery d where d.id in (select id"
            + " from webhook_delivery where created_at < now() - $1 * interval '1 millisecond'"
            + " and status in ('delivered', 'failed', 'cancelled') order by created_at limit $2 for update skip locked)"
            + " returning d.id, d.event_id),"
            + " attempts as (delete from delivery_attempt a using gone where a.delivery_id = gone.id returning 1),"
            + " per_event as (select event_id, count(*)::int as n from gone group by event_id),"
            + " counted as (update delivery_event e set deliveries = e.deliveries - p.n from per_event p"
            + " where e.id = p.event_id returning e.id, e.deliveries)"
            + " select (select count(*) from gone) as deliveries, (select count(*) from attempts) as attempts,"
            + " array(select id from counted where deliveries <= 0) as emptied";
    private static final String DELETE_EVENTS = "delete from delivery_event where id = any($1) and deliveries <= 0";
    private static final String OLDEST_FINISHED = "select coalesce(extract(epoch from now() - min(created_at)), 0)::bigint"
            + " as age from webhook_delivery where status in ('delivered', 'failed', 'cancelled')";

    private final Pool pool;

    DeliveryRetention(Pool pool) {
        this.pool = pool;
    }

    /** Deletes up to batchSize finished deliveries created longer ago than retention, in one short transaction. */
    public Uni<Purged> purgeBatch(Duration retention, int batchSize) {
        return pool.withTransaction(connection -> connection.query(ONLY_PURGER).execute()
                .chain(rows -> rows.iterator().next().getBoolean("mine")
                        ? purge(connection, retention, batchSize)
                        : Uni.createFrom().item(new Purged(0, 0, 0, true))));
    }

    private static Uni<Purged> purge(SqlConnection connection, Duration retention, int batchSize) {
        return connection.preparedQuery(PURGE).execute(Tuple.of(retention.toMillis(), batchSize)).chain(rows -> {
            Row row = rows.iterator().next();
            long deliveries = row.getLong("deliveries");
            long attempts = row.getLong("attempts");
            String[] emptied = row.getArrayOfStrings("emptied");
            if (emptied.length == 0) {
                return Uni.createFrom().item(new Purged(deliveries, attempts, 0, false));
            }
            return connection.preparedQuery(DELETE_EVENTS).execute(Tuple.of(emptied))
                    .map(deleted -> new Purged(deliveries, attempts, deleted.rowCount(), false));
        });
    }

    /** Seconds since the oldest finished delivery still kept was created; 0 when there is none. */
    public Uni<Long> oldestFinishedAgeSeconds() {
        return pool.query(OLDEST_FINISHED).execute().map(rows -> rows.iterator().next().getLong("age"));
    }
}
