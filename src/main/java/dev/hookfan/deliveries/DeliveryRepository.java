package dev.hookfan.deliveries;

import dev.hookfan.api.Cursor;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

@ApplicationScoped
public class DeliveryRepository implements PanacheRepositoryBase<WebhookDelivery, String> {

    private static final String INSERT_IF_ABSENT = "insert into webhook_delivery (id, webhook_id, payload, organization_id,"
            + " message_id, event_type, status, attempts, next_attempt_at, traceparent, created_at)"
            + " select t.id, t.webhook_id, t.payload, $4, $5, $6, 'pending', 0, $7, $8, $9"
            + " from unnest($1::varchar[], $2::varchar[], $3::text[]) as t(id, webhook_id, payload)"
            + " on conflict (id) do nothing returning id";

    private final Pool pool;

    DeliveryRepository(Pool pool) {
        this.pool = pool;
    }

    /** Which of these ids are already written: one round trip whatever their number. */
    public Uni<List<String>> existingIds(List<String> ids) {
        return Panache.getSession().chain(session -> session
                .createSelectionQuery("select d.id from WebhookDelivery d where d.id in :ids", String.class)
                .setParameter("ids", ids)
                .getResultList());
    }

    /**
     * Inserts the rows in one statement, its own transaction, and returns the ids actually inserted: a concurrent
     * attempt that got there first makes its rows conflict, not fail, so both attempts succeed with one row each.
     * Straight on the reactive pool, as one prepared statement whatever the number of rows: through Hibernate, every
     * native INSERT … RETURNING added a query plan that was never found again, and searching that cache took 15 % of
     * the service's CPU under load (JFR, bench/run.sh).
     */
    public Uni<List<String>> insertIfAbsent(List<NewDelivery> rows, DeliverySource source, Instant now, Duration sweepGrace) {
        String[] ids = rows.stream().map(NewDelivery::id).toArray(String[]::new);
        String[] webhookIds = rows.stream().map(NewDelivery::webhookId).toArray(String[]::new);
        String[] payloads = rows.stream().map(NewDelivery::payload).toArray(String[]::new);
        Tuple arguments = Tuple.tuple().addArrayOfString(ids).addArrayOfString(webhookIds).addArrayOfString(payloads)
                .addString(source.organizationId()).addString(source.messageId()).addString(source.eventType())
                // Fresh rows belong to the fast path; the poller takes them only after the grace.
                .addOffsetDateTime(now.plus(sweepGrace).atOffset(ZoneOffset.UTC))
                .addString(source.traceparent())
                .addOffsetDateTime(now.atOffset(ZoneOffset.UTC));
        return pool.preparedQuery(INSERT_IF_ABSENT).execute(arguments)
                .map(inserted -> {
                    List<String> written = new ArrayList<>(inserted.size());
                    inserted.forEach(row -> written.add(row.getString("id")));
                    return written;
                });
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
            query.append(" and (createdAt > :at or (createdAt = :at and id > :id))");
            parameters.and("at", after.createdAt()).and("id", after.id());
        }
        return find(query.append(" order by createdAt, id").toString(), parameters).page(0, limit + 1).list();
    }

    public Uni<List<DeliveryAttempt>> attemptsOf(String deliveryId) {
        return DeliveryAttempt.<DeliveryAttempt>find("deliveryId = ?1 order by attemptNumber", deliveryId).list();
    }
}
