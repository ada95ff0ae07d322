package dev.hookfan.sending;

import dev.hookfan.batching.GroupCommit;
import dev.hookfan.deliveries.RequestedDelivery;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The sender's reads and claims of delivery rows: a claim is a lease, taken when a send can start, so two instances
 * never send one attempt twice; the rest finds work for the scheduler without claiming it.
 */
@Singleton
class DeliveryClaims {

    /**
     * Whether the webhook is enabled, and where and how to send, come from the directory: no join, no subquery. The
     * event comes with the claimed rows, its body on the first row of each event only: deliveries of one event claimed
     * together share one copy of it in memory.
     */
    static final String CLAIM_SOME = "with claimed as (update webhook_delivery d"
            + " set lease_until = now() + $2 * interval '1 millisecond'"
            + " where d.id = any($1) and d.status = 'pending'"
            + " and (d.attempts = 0 or d.next_attempt_at <= now()) and (d.lease_until is null or d.lease_until < now())"
            + " returning d.id, d.webhook_id, d.organization_id, d.event_id, d.attempts, d.lease_until)"
            + " select c.id, c.webhook_id, c.organization_id, c.event_id, c.attempts, c.lease_until, e.message_id,"
            + " e.event_type, e.traceparent,"
            + " case when row_number() over (partition by c.event_id) = 1 then e.body end as body"
            + " from claimed c left join delivery_event e on e.id = c.event_id";
    /** Due work of webhooks that have none waiting here; a disabled webhook's deliveries wait in the database. */
    static final String DUE = "select d.id, d.webhook_id, d.organization_id from webhook_delivery d"
            + " join webhook w on w.id = d.webhook_id and w.enabled"
            + " where d.next_attempt_at <= now() and d.status = 'pending' and (d.lease_until is null or d.lease_until < now())"
            + " and not (d.webhook_id = any($2)) order by d.next_attempt_at limit $1";
    /** One webhook's due work in order, through its own index. */
    static final String DUE_OF_WEBHOOK = "select d.id, d.webhook_id, d.organization_id from webhook_delivery d"
            + " where d.webhook_id = $1 and d.next_attempt_at <= now() and d.status = 'pending'"
            + " and (d.lease_until is null or d.lease_until < now()) order by d.next_attempt_at limit $2";
    /** Work that did not fit in memory is due now, so its webhook's refill finds it without waiting for the sweep. */
    private static final String MAKE_DUE = "update webhook_delivery set next_attempt_at = now()"
            + " where id = any($1) and status = 'pending' and next_attempt_at is null";
    /** Requests whose claims share a statement. */
    static final int CLAIM_BATCH = 64;
    /** Two at a time, so a claim waits for at most one statement ahead of it. */
    static final int CLAIMS_IN_FLIGHT = 2;

    private final Pool pool;
    private final GroupCommit<String, ClaimedDelivery> claims;
    private final long leaseMillis;

    DeliveryClaims(Pool pool, dev.hookfan.deliveries.DeliveryConfig config) {
        this.pool = pool;
        // The lease outlives the longest possible attempt and its recording, so it only expires on a crash or a stall.
        this.leaseMillis = config.timeout().multipliedBy(2).plusSeconds(5).toMillis();
        this.claims = new GroupCommit<>("claims", CLAIM_BATCH, CLAIMS_IN_FLIGHT, this::claimAll);
    }

    /** The claimed delivery, or null if someone else holds it, it is not due, or it is no longer pending. */
    Uni<ClaimedDelivery> claim(String deliveryId) {
        return claims.submit(deliveryId);
    }

    private Uni<List<ClaimedDelivery>> claimAll(List<String> ids) {
        return pool.preparedQuery(CLAIM_SOME).execute(Tuple.of(ids.toArray(String[]::new), leaseMillis)).map(rows -> {
            Map<String, String> bodies = new HashMap<>();
            rows.forEach(row -> {
                String body = row.getString("body");
                if (body != null) {
                    bodies.put(row.getString("event_id"), body);
                }
            });
            Map<String, ClaimedDelivery> claimed = new HashMap<>();
            rows.forEach(row -> claimed.put(row.getString("id"), ClaimedDelivery.of(row, bodies.get(row.getString("event_id")))));
            List<ClaimedDelivery> answers = new ArrayList<>(ids.size());
            // Two starts of one id in a batch (the poller and a request): the first one gets it.
            ids.forEach(id -> answers.add(claimed.remove(id)));
            return answers;
        });
    }

    Uni<List<RequestedDelivery>> due(List<String> excludedWebhooks, int limit) {
        return pool.preparedQuery(DUE).execute(Tuple.of(limit, excludedWebhooks.toArray(String[]::new)))
                .map(DeliveryClaims::requested);
    }

    Uni<List<RequestedDelivery>> dueOf(String webhookId, int limit) {
        return pool.preparedQuery(DUE_OF_WEBHOOK).execute(Tuple.of(webhookId, limit)).map(DeliveryClaims::requested);
    }

    Uni<Void> makeDue(List<RequestedDelivery> deliveries) {
        String[] ids = deliveries.stream().map(RequestedDelivery::id).toArray(String[]::new);
        return pool.preparedQuery(MAKE_DUE).execute(Tuple.of(ids)).replaceWithVoid();
    }

    private static List<RequestedDelivery> requested(RowSet<Row> rows) {
        List<RequestedDelivery> found = new ArrayList<>(rows.size());
        rows.forEach(row -> found.add(new RequestedDelivery(row.getString("id"), row.getString("webhook_id"),
                row.getString("organization_id"))));
        return found;
    }
}
