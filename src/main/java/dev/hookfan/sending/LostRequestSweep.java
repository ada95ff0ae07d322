package dev.hookfan.sending;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The fast path's safety net. Every fan-out writes one sweep row naming its deliveries (V8), due after
 * hookfan.delivery.sweep-grace. Once due, this deletes it and makes those of its deliveries that are still pending
 * and have no next attempt due now, so the poller sends them: their request message was lost, or its sender
 * crashed (a live lease still keeps them from a second send). Until then a fresh delivery is not in the due index.
 */
@ApplicationScoped
class LostRequestSweep {

    /**
     * Locks the deliveries in id order, as records (sorted arrays) and claims planned as index scans (sorted keys) do:
     * locked in the order of a join, the sweep deadlocked with claims and records under load, each a 1 s stall. A claim
     * planned as a bitmap scan still locks in page order, so a rare deadlock remains (PostgreSQL's log).
     */
    private static final String SWEEP = "with swept as (delete from delivery_sweep where id in (select id from delivery_sweep"
            + " where due_at <= now() order by due_at limit $1 for update skip locked) returning delivery_ids),"
            + " unsent as (select d.id from webhook_delivery d where d.id in (select unnest(delivery_ids) from swept)"
            + " and d.status = 'pending' and d.next_attempt_at is null order by d.id for update)"
            + " update webhook_delivery d set next_attempt_at = now() from unsent where d.id = unsent.id"
            + " and d.status = 'pending' and d.next_attempt_at is null";

    private final Pool pool;

    LostRequestSweep(Pool pool) {
        this.pool = pool;
    }

    /** Deletes up to this many due sweep rows and makes their unsent deliveries due, in one statement. */
    Uni<Void> makeDue(int sweepRows) {
        return pool.preparedQuery(SWEEP).execute(Tuple.of(sweepRows)).replaceWithVoid();
    }
}
