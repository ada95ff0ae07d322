package dev.hookfan.deliveries;

import dev.hookfan.api.Cursor;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

@ApplicationScoped
public class DeliveryRepository implements PanacheRepositoryBase<WebhookDelivery, String> {

    private static final int PARAMETERS_PER_ROW = 9;

    /** Which of these ids are already written: one round trip whatever their number. */
    public Uni<List<String>> existingIds(List<String> ids) {
        return Panache.getSession().chain(session -> session
                .createSelectionQuery("select d.id from WebhookDelivery d where d.id in :ids", String.class)
                .setParameter("ids", ids)
                .getResultList());
    }

    /**
     * Inserts the rows in one statement and returns the ids actually inserted: a concurrent attempt that
     * got there first makes its rows conflict, not fail, so both attempts succeed with one row each.
     */
    public Uni<List<String>> insertIfAbsent(List<NewDelivery> rows, DeliverySource source, Instant now, Duration sweepGrace) {
        StringBuilder sql = new StringBuilder("insert into webhook_delivery (id, webhook_id, organization_id, message_id,"
                + " event_type, payload, status, attempts, next_attempt_at, traceparent, created_at) values ");
        for (int row = 0; row < rows.size(); row++) {
            int p = row * PARAMETERS_PER_ROW;
            sql.append(row == 0 ? "" : ", ").append("(?").append(p + 1).append(", ?").append(p + 2).append(", ?").append(p + 3)
                    .append(", ?").append(p + 4).append(", ?").append(p + 5).append(", ?").append(p + 6)
                    .append(", 'pending', 0, ?").append(p + 7).append(", ?").append(p + 8).append(", ?").append(p + 9).append(")");
        }
        sql.append(" on conflict (id) do nothing returning id");
        return Panache.getSession().chain(session -> {
            var query = session.createNativeQuery(sql.toString(), String.class);
            for (int row = 0; row < rows.size(); row++) {
                NewDelivery delivery = rows.get(row);
                int p = row * PARAMETERS_PER_ROW;
                query.setParameter(p + 1, delivery.id())
                        .setParameter(p + 2, delivery.webhookId())
                        .setParameter(p + 3, source.organizationId())
                        .setParameter(p + 4, source.messageId())
                        .setParameter(p + 5, source.eventType())
                        .setParameter(p + 6, delivery.payload())
                        // Fresh rows belong to the fast path; the poller takes them only after the grace.
                        .setParameter(p + 7, now.plus(sweepGrace))
                        .setParameter(p + 8, source.traceparent())
                        .setParameter(p + 9, now);
            }
            return query.getResultList();
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
