package dev.hookfan.sending;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The fast path's safety net. Every fan-out writes one sweep row naming its deliveries, due after
 * hookfan.delivery.sweep-grace. Once due, this deletes it and makes those of its deliveries that are still pending
 * and have no next attempt due now, so the poller sends them: their request message was lost, or its sender
 * crashed (a live lease still keeps them from a second send). Until then a fresh delivery is not in the due index.
 */
@ApplicationScoped
class LostRequestSweep {

    /**
     * Takes the oldest due sweep rows while the deliveries they name stay within the budget (always the first), and
     * leaves the others as they are. Never waits for a row lock: it takes the deliveries it can lock now and writes a
     * new sweep row, due at once, for those a claim or a record holds. Waiting, in whatever order, it deadlocked with
     * claims planned as bitmap scans (page order) under load, each a 1 s stall (PostgreSQL's log). All parts of the
     * statement read one snapshot.
     */
    private static final String SWEEP = "with candidates as (select id, due_at, cardinality(delivery_ids) as size"
            + " from delivery_sweep where due_at <= now() order by due_at, id limit $1 for update skip locked),"
            + " chosen as (select id from (select id, sum(size) over (order by due_at, id) - size as before from candidates) c"
            + " where before < $2),"
            + " swept as (delete from delivery_sweep where id in (select id from chosen) returning delivery_ids),"
            + " named as (select unnest(delivery_ids) as id from swept),"
            + " unsent as (select d.id from webhook_delivery d where d.id in (select id from named)"
            + " and d.status = 'pending' and d.next_attempt_at is null for update skip locked),"
            + " made_due as (update webhook_delivery d set next_attempt_at = now() from unsent where d.id = unsent.id"
            + " and d.status = 'pending' and d.next_attempt_at is null),"
            + " held as (select d.id from webhook_delivery d where d.id in (select id from named)"
            + " and d.status = 'pending' and d.next_attempt_at is null and d.id not in (select id from unsent))"
            + " insert into delivery_sweep (delivery_ids, due_at) select array_agg(id order by id), now() from held"
            + " having count(*) > 0";

    private final Pool pool;

    LostRequestSweep(Pool pool) {
        this.pool = pool;
    }

    /**
     * Deletes up to this many due sweep rows, no more than name {@code budget} deliveries (at least one row), and makes
     * their unsent deliveries due, in one statement.
     */
    Uni<Void> makeDue(int sweepRows, int budget) {
        return pool.preparedQuery(SWEEP).execute(Tuple.of(sweepRows, budget)).replaceWithVoid();
    }
}
