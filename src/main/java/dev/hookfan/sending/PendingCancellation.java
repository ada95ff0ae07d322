package dev.hookfan.sending;

import dev.hookfan.webhooks.PendingDeliveries;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;

/** Cancels deliveries nobody will send: a disabled or deleted webhook's, and those a delete left behind. */
@Singleton
class PendingCancellation implements PendingDeliveries {

    /** How long a delivery a fan-out wrote while its webhook was being deleted may stay pending before it is cancelled. */
    static final String SWEEP_INTERVAL = "15s";

    private static final String FOR_WEBHOOK = "update webhook_delivery set status = 'cancelled', next_attempt_at = null,"
            + " lease_until = null, last_error = $2 where webhook_id = $1 and status = 'pending'";
    // A fan-out that read a webhook just before it was deleted may have left rows for it; nobody can send them.
    // Only due rows are looked at, through the due index: a fresh row is due once its sweep grace has passed.
    private static final String ORPHANS = "update webhook_delivery d set status = 'cancelled', next_attempt_at = null,"
            + " lease_until = null, last_error = 'webhook deleted' where d.status = 'pending' and d.next_attempt_at is not null"
            + " and not exists (select 1 from webhook w where w.id = d.webhook_id)";

    private final Pool pool;

    PendingCancellation(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Void> cancel(String webhookId, String reason) {
        return cancel(pool, webhookId, reason);
    }

    /** On the given client, so a webhook disabled by an attempt's record loses its pending work in that transaction. */
    Uni<Void> cancel(SqlClient client, String webhookId, String reason) {
        return client.preparedQuery(FOR_WEBHOOK).execute(Tuple.of(webhookId, reason)).replaceWithVoid();
    }

    @Scheduled(every = SWEEP_INTERVAL, concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> orphans() {
        return pool.query(ORPHANS).execute().replaceWithVoid().onFailure().recoverWithNull();
    }
}
