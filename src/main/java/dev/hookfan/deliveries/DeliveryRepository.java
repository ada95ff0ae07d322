package dev.hookfan.deliveries;

import dev.hookfan.api.Cursor;
import dev.hookfan.batching.OptimisticInsert;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

@Singleton
public class DeliveryRepository implements PanacheRepositoryBase<WebhookDelivery, String> {

    private static final String EXISTING_IDS = "select id from webhook_delivery where id = any($1)";
    /** The rows, and one sweep row naming those inserted (V8): no next_attempt_at, so no entry in the due index. */
    private static final OptimisticInsert INSERT_IF_ABSENT = new OptimisticInsert("with inserted as (insert into webhook_delivery (id, webhook_id, payload,"
            + " organization_id, message_id, event_type, traceparent, status, attempts, created_at)"
            + " select t.id, t.webhook_id, t.payload, t.organization_id, t.message_id, t.event_type, t.traceparent,"
            + " 'pending', 0, $9"
            + " from unnest($1::varchar[], $2::varchar[], $3::text[], $4::varchar[], $5::varchar[], $6::varchar[],"
            + " $7::varchar[]) as t(id, webhook_id, payload, organization_id, message_id, event_type, traceparent)"
            + "%s returning id),"
            + " swept as (insert into delivery_sweep (delivery_ids, due_at) select array_agg(id), $8 from inserted"
            + " having count(*) > 0)"
            + " select id from inserted", "on conflict (id) do nothing");
    private static final String ATTEMPTS = "select attempt_number, started_at, duration_ms, response_status, response_body,"
            + " error from delivery_attempt_history where delivery_id = $1 order by attempt_number";

    private final Pool pool;

    DeliveryRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Which of these ids are already written: one round trip and one prepared statement whatever their number.
     * Straight on the reactive pool, like the insert below: through Hibernate, translating this lookup and the audit
     * log's anew on every call took 11 % of the service's CPU samples under load (JFR, bench/run.sh).
     */
    public Uni<List<String>> existingIds(List<String> ids) {
        return pool.preparedQuery(EXISTING_IDS).execute(Tuple.of(ids.toArray(String[]::new)))
                .map(DeliveryRepository::ids);
    }

    /**
     * Inserts the rows in one statement, its own transaction, and returns the ids actually inserted: a concurrent
     * attempt that got there first makes its rows conflict, not fail, so both attempts succeed with one row each
     * ({@link OptimisticInsert}: the conflict check only runs once a plain insert has met such a row).
     * Straight on the reactive pool, as one prepared statement whatever the number of rows: through Hibernate, every
     * native INSERT … RETURNING added a query plan that was never found again, and searching that cache took 15 % of
     * the service's CPU under load (JFR, bench/run.sh).
     */
    public Uni<List<String>> insertIfAbsent(List<NewDelivery> unordered, Instant now, Duration sweepGrace) {
        // In id order: two batches in flight that share rows (copies of one message) then wait on each other in one
        // order, never in a cycle.
        List<NewDelivery> rows = unordered.stream().sorted(Comparator.comparing(NewDelivery::id)).toList();
        int size = rows.size();
        String[][] columns = new String[7][size];
        for (int i = 0; i < size; i++) {
            NewDelivery row = rows.get(i);
            columns[0][i] = row.id();
            columns[1][i] = row.webhookId();
            columns[2][i] = row.payload();
            columns[3][i] = row.source().organizationId();
            columns[4][i] = row.source().messageId();
            columns[5][i] = row.source().eventType();
            columns[6][i] = row.source().traceparent();
        }
        Tuple arguments = Tuple.tuple();
        for (String[] column : columns) {
            arguments.addArrayOfString(column);
        }
        // Fresh rows belong to the fast path; the poller makes them due only after the grace (LostRequestSweep).
        arguments.addOffsetDateTime(now.plus(sweepGrace).atOffset(ZoneOffset.UTC)).addOffsetDateTime(now.atOffset(ZoneOffset.UTC));
        return INSERT_IF_ABSENT.execute(pool, arguments).map(DeliveryRepository::ids);
    }

    private static List<String> ids(RowSet<Row> rows) {
        List<String> ids = new ArrayList<>(rows.size());
        rows.forEach(row -> ids.add(row.getString("id")));
        return ids;
    }

    public Uni<WebhookDelivery> findOwned(String organizationId, String id) {
        return find("id = ?1 and organizationId = ?2", id, organizationId).firstResult();
    }

    public Uni<List<WebhookDelivery>> page(String webhookId, DeliveryStatus status, Cursor after, int limit) {
        StringBuilder query = new StringBuilder("webhookId = :webhook");
        var parameters = io.quarkus.panache.common.Parameters.with("webhook", webhookId);
        if (status != null) {
            query.append(" and status = :status");
            parameters.and("status", status);
        }
        if (after != null) {
            query.append(" and ").append(Cursor.after("createdAt"));
            parameters.and("at", after.createdAt()).and("id", after.id());
        }
        return find(query.append(" order by createdAt, id").toString(), parameters).page(0, limit + 1).list();
    }

    /** Failed attempts have rows of their own, the success is on the delivery: the view reads both (V7). */
    public Uni<List<DeliveryView.AttemptView>> attemptsOf(String deliveryId) {
        return pool.preparedQuery(ATTEMPTS).execute(Tuple.of(deliveryId)).map(rows -> {
            List<DeliveryView.AttemptView> attempts = new ArrayList<>(rows.size());
            rows.forEach(row -> attempts.add(DeliveryView.AttemptView.of(row)));
            return attempts;
        });
    }
}
