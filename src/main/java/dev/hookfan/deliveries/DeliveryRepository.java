package dev.hookfan.deliveries;

import dev.hookfan.api.Cursor;
import dev.hookfan.batching.OptimisticInsert;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The deliveries and the events they send, on the reactive pool. An event is stored once ({@code delivery_event})
 * and counts the delivery rows that refer to it; a delivery row holds only what is its own.
 */
@Singleton
public class DeliveryRepository {

    private static final String EXISTING_IDS = "select id from webhook_delivery where id = any($1)";
    /**
     * The rows, the events they send (a new event with its count, a known one counted up: that also locks it against
     * the retention purge until this commits), and one sweep row naming the inserted deliveries: no
     * next_attempt_at, so no entry in the due index. Only deliveries actually inserted count.
     */
    private static final OptimisticInsert INSERT_IF_ABSENT = new OptimisticInsert("with inserted as (insert into webhook_delivery"
            + " (id, webhook_id, event_id, organization_id, status, attempts, created_at)"
            + " select t.id, t.webhook_id, t.event_id, t.organization_id, 'pending', 0, $11"
            + " from unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[]) as t(id, webhook_id, event_id, organization_id)"
            + "%s returning id, event_id),"
            + " counted as (select event_id, count(*)::int as deliveries from inserted group by event_id),"
            + " stored as (insert into delivery_event (id, organization_id, message_id, event_type, traceparent, body, deliveries,"
            + " created_at) select e.id, e.organization_id, e.message_id, e.event_type, e.traceparent, e.body, c.deliveries, $11"
            + " from unnest($5::varchar[], $6::varchar[], $7::varchar[], $8::varchar[], $9::varchar[], $10::text[])"
            + " as e(id, organization_id, message_id, event_type, traceparent, body) join counted c on c.event_id = e.id"
            + " order by e.id%s),"
            + " swept as (insert into delivery_sweep (delivery_ids, due_at) select array_agg(id), $12 from inserted"
            + " having count(*) > 0)"
            + " select id from inserted",
            "on conflict (id) do nothing",
            "on conflict (id) do update set deliveries = delivery_event.deliveries + excluded.deliveries");
    private static final String VIEW = "select d.id, d.webhook_id, d.organization_id, e.message_id, e.event_type, d.status,"
            + " d.attempts, d.next_attempt_at, d.created_at, d.delivered_at, d.last_error%s"
            + " from webhook_delivery d join delivery_event e on e.id = d.event_id where ";
    private static final String ONE = VIEW.formatted(", e.body") + "d.id = $1 and d.organization_id = $2";
    private static final String PAGE = VIEW.formatted("") + "d.webhook_id = $1 and ($2::varchar is null or d.status = $2)"
            + " and ($3::timestamptz is null or d.created_at >= $3 and (d.created_at > $3 or d.id > $4))"
            + " order by d.created_at, d.id limit $5";
    /** The same listing from the newest down, through the same index read backwards. */
    private static final String PAGE_NEWEST_FIRST = VIEW.formatted("") + "d.webhook_id = $1 and ($2::varchar is null or d.status = $2)"
            + " and ($3::timestamptz is null or d.created_at <= $3 and (d.created_at < $3 or d.id < $4))"
            + " order by d.created_at desc, d.id desc limit $5";
    private static final String ATTEMPTS = "select attempt_number, started_at, duration_ms, response_status, response_body,"
            + " error from delivery_attempt_history where delivery_id = $1 order by attempt_number";
    /** Only what a redelivery changes: a lease or a record being written meanwhile keeps its own columns. */
    private static final String REOPEN = "update webhook_delivery d set status = 'pending', next_attempt_at = now(),"
            + " delivered_at = null where d.id = $1 and d.organization_id = $2"
            + " and exists (select 1 from webhook w where w.id = d.webhook_id) returning d.id, d.webhook_id, d.organization_id";
    private static final String WEBHOOK_OF = "select webhook_id from webhook_delivery where id = $1 and organization_id = $2";
    /** A batch of the webhook's failed deliveries created in [$2, $3), oldest first, reopened as REOPEN does one. */
    private static final String REOPEN_FAILED = "with chosen as (select id from webhook_delivery where webhook_id = $1"
            + " and status = 'failed' and created_at >= $2 and created_at < $3 order by created_at, id limit $4"
            + " for update skip locked)"
            + " update webhook_delivery d set status = 'pending', next_attempt_at = now(), delivered_at = null from chosen"
            + " where d.id = chosen.id returning d.id, d.webhook_id, d.organization_id";

    private static final String LAST_DELIVERED = "select w.id, (select d.delivered_at from webhook_delivery d where d.webhook_id = w.id"
            + " and d.status = 'delivered' order by d.created_at desc limit 1) as delivered_at from unnest($1::varchar[]) as w(id)";

    private final Pool pool;

    DeliveryRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Which of these ids are already written: one round trip and one prepared statement whatever their number.
     * Straight on the reactive pool, like the insert below: through Hibernate, translating this lookup and the audit
     * log's anew on every call cost a tenth of the service's CPU under load (bench/HISTORY.md).
     */
    public Uni<List<String>> existingIds(List<String> ids) {
        return pool.preparedQuery(EXISTING_IDS).execute(Tuple.of(ids.toArray(String[]::new)))
                .map(DeliveryRepository::ids);
    }

    /**
     * Inserts the rows and their events in one statement, its own transaction, and returns the ids actually
     * inserted: a concurrent attempt that got there first makes its rows conflict, not fail, so both attempts succeed
     * with one row each ({@link OptimisticInsert}: the conflict checks only run once a plain insert has met such a
     * row). Each event's body is rendered here, once, for the events that have a missing delivery.
     */
    public Uni<List<String>> insertIfAbsent(List<NewDelivery> unordered, Instant now, Duration sweepGrace) {
        // In id order: two batches in flight that share rows (copies of one message) then wait on each other in one
        // order, never in a cycle.
        List<NewDelivery> rows = unordered.stream().sorted(Comparator.comparing(NewDelivery::id)).toList();
        Map<String, NewEvent> events = new LinkedHashMap<>();
        rows.forEach(row -> events.putIfAbsent(row.event().id, row.event()));
        Tuple arguments = Tuple.tuple()
                .addArrayOfString(rows.stream().map(NewDelivery::id).toArray(String[]::new))
                .addArrayOfString(rows.stream().map(NewDelivery::webhookId).toArray(String[]::new))
                .addArrayOfString(rows.stream().map(row -> row.event().id).toArray(String[]::new))
                .addArrayOfString(rows.stream().map(row -> row.event().organizationId).toArray(String[]::new))
                .addArrayOfString(events.values().stream().map(event -> event.id).toArray(String[]::new))
                .addArrayOfString(events.values().stream().map(event -> event.organizationId).toArray(String[]::new))
                .addArrayOfString(events.values().stream().map(event -> event.messageId).toArray(String[]::new))
                .addArrayOfString(events.values().stream().map(event -> event.eventType).toArray(String[]::new))
                .addArrayOfString(events.values().stream().map(event -> event.traceparent).toArray(String[]::new))
                .addArrayOfString(events.values().stream().map(NewEvent::body).toArray(String[]::new))
                .addOffsetDateTime(now.atOffset(ZoneOffset.UTC))
                // Fresh rows belong to the fast path; the poller makes them due only after the grace (LostRequestSweep).
                .addOffsetDateTime(now.plus(sweepGrace).atOffset(ZoneOffset.UTC));
        return INSERT_IF_ABSENT.execute(pool, arguments).map(DeliveryRepository::ids);
    }

    private static List<String> ids(RowSet<Row> rows) {
        List<String> ids = new ArrayList<>(rows.size());
        rows.forEach(row -> ids.add(row.getString("id")));
        return ids;
    }

    /** One delivery with the body it sends, or null when it does not exist or is another organization's. */
    Uni<DeliveryView> findOwned(String organizationId, String id) {
        return pool.preparedQuery(ONE).execute(Tuple.of(id, organizationId))
                .map(rows -> rows.size() == 0 ? null : DeliveryView.of(rows.iterator().next(), true));
    }

    /** Up to limit + 1 deliveries of the webhook after the cursor, in creation order. */
    Uni<List<DeliveryView>> page(String webhookId, DeliveryStatus status, Cursor after, int limit, boolean newestFirst) {
        Tuple arguments = Tuple.tuple().addString(webhookId).addString(status == null ? null : status.name())
                .addOffsetDateTime(after == null ? null : after.createdAt().atOffset(ZoneOffset.UTC))
                .addString(after == null ? null : after.id())
                .addInteger(limit + 1);
        return pool.preparedQuery(newestFirst ? PAGE_NEWEST_FIRST : PAGE).execute(arguments).map(rows -> {
            List<DeliveryView> page = new ArrayList<>(rows.size());
            rows.forEach(row -> page.add(DeliveryView.of(row, false)));
            return page;
        });
    }

    /**
     * When each webhook's newest delivered delivery was delivered (absent: none kept). The newest in creation order,
     * through the per-webhook listing index: a webhook that fails for long is read back to its last success.
     */
    public Uni<Map<String, Instant>> lastDelivered(List<String> webhookIds) {
        return pool.preparedQuery(LAST_DELIVERED).execute(Tuple.of(webhookIds.toArray(String[]::new))).map(rows -> {
            Map<String, Instant> delivered = new HashMap<>();
            rows.forEach(row -> {
                OffsetDateTime at = row.getOffsetDateTime("delivered_at");
                if (at != null) {
                    delivered.put(row.getString("id"), at.toInstant());
                }
            });
            return delivered;
        });
    }

    /** Failed attempts have rows of their own, the success is on the delivery: the view reads both. */
    Uni<List<DeliveryView.AttemptView>> attemptsOf(String deliveryId) {
        return pool.preparedQuery(ATTEMPTS).execute(Tuple.of(deliveryId)).map(rows -> {
            List<DeliveryView.AttemptView> attempts = new ArrayList<>(rows.size());
            rows.forEach(row -> attempts.add(DeliveryView.AttemptView.of(row)));
            return attempts;
        });
    }

    /**
     * Makes the delivery pending and due now, for its webhook to send again with the same id and body. Null when it
     * does not exist or is another organization's; fails with a 409 when its webhook was deleted.
     */
    Uni<RequestedDelivery> reopen(String organizationId, String id) {
        return pool.preparedQuery(REOPEN).execute(Tuple.of(id, organizationId)).chain(rows -> {
            if (rows.size() > 0) {
                return Uni.createFrom().item(requested(rows.iterator().next()));
            }
            return pool.preparedQuery(WEBHOOK_OF).execute(Tuple.of(id, organizationId)).map(found -> {
                if (found.size() > 0) {
                    throw dev.hookfan.api.ApiException.conflict("webhook-deleted", "The webhook of delivery " + id + " was deleted");
                }
                return null;
            });
        });
    }

    /** Reopens up to limit of the webhook's failed deliveries created in [since, until), in one statement. */
    Uni<List<RequestedDelivery>> reopenFailed(String webhookId, Instant since, Instant until, int limit) {
        return pool.preparedQuery(REOPEN_FAILED).execute(Tuple.of(webhookId, since.atOffset(ZoneOffset.UTC),
                until.atOffset(ZoneOffset.UTC), limit)).map(rows -> {
            List<RequestedDelivery> reopened = new ArrayList<>(rows.size());
            rows.forEach(row -> reopened.add(requested(row)));
            return reopened;
        });
    }

    /** A reopened delivery, as REOPEN and REOPEN_FAILED return it, to be asked for. */
    private static RequestedDelivery requested(Row row) {
        return new RequestedDelivery(row.getString("id"), row.getString("webhook_id"), row.getString("organization_id"));
    }
}
