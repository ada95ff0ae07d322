package dev.hookfan.sending;

import dev.hookfan.events.IntegrationEvent;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the service tells about itself, as integration events on its own exchange: a webhook disabled, a delivery that
 * exhausted its schedule, a webhook whose exhausted deliveries were announced succeeding again. Each is written to the
 * {@code operational_event} outbox in the transaction that records the fact, with an id derived from the fact,
 * and published from there, then deleted; a recovery is written by the success statement ({@link DeliveredRecords}).
 * Nothing is said about the delivery of an operational event itself.
 */
@Singleton
class OperationalEvents {

    static final String DISABLED = "hookfan.webhook.disabled";
    static final String EXHAUSTED = "hookfan.delivery.exhausted";
    private static final Logger LOG = Logger.getLogger(OperationalEvents.class);
    private static final String NOW = "to_char(now() at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')";

    /** The outbox row of a fact: its id from the type and what makes the fact unique, its body in the message contract. */
    private static String outboxRow(String type, String uniqueText, String organizationId, String data) {
        return "encode(sha256(convert_to('" + type + "/' || " + uniqueText + ", 'UTF8')), 'hex'), " + organizationId + ", '"
                + type + "', json_build_object('type', '" + type + "', 'organizationId', " + organizationId + ", 'occurredAt', "
                + NOW + ", 'data', " + data + ")::text";
    }

    private static final String INSERT = "insert into operational_event (id, organization_id, event_type, body) select ";

    /** After the webhook was disabled (its new version makes each disabling a fact of its own). */
    static final String WEBHOOK_DISABLED = INSERT + outboxRow(DISABLED, "w.id || '/' || w.version", "w.organization_id",
            "json_build_object('webhookId', w.id, 'url', w.url, 'reason', w.disabled_reason)")
            + " from webhook w where w.id = $1 on conflict (id) do nothing";

    /** After delivery $1 of webhook $2 was failed for good; also marks the webhook so that its next success is announced. */
    static final String DELIVERY_EXHAUSTED = "with marked as (update webhook set failure_announced = true where id = $2) "
            + INSERT
            + outboxRow(EXHAUSTED, "d.id || '/' || d.attempts", "d.organization_id",
            "json_build_object('webhookId', d.webhook_id, 'deliveryId', d.id, 'eventType', e.event_type, 'attempts', d.attempts,"
                    + " 'lastError', d.last_error)")
            + " from webhook_delivery d join delivery_event e on e.id = d.event_id where d.id = $1 on conflict (id) do nothing";

    /** Whether a delivery of this event type may be announced: never one of an operational event (no loops). */
    static boolean announces(String eventType) {
        return !IntegrationEvent.isOperational(eventType);
    }

    private static final String PENDING = "select id, event_type, body from operational_event order by created_at, id limit 100";
    private static final String PUBLISHED = "delete from operational_event where id = $1";

    private final Pool pool;
    private final Vertx vertx;
    private final OperationalEventPublisher publisher;
    private final AtomicBoolean relaying = new AtomicBoolean();
    private long timer = -1;

    OperationalEvents(Pool pool, Vertx vertx, OperationalEventPublisher publisher) {
        this.pool = pool;
        this.vertx = vertx;
        this.publisher = publisher;
    }

    void start(@Observes StartupEvent event) {
        timer = vertx.setPeriodic(1000, id -> relay());
    }

    void stop(@Observes ShutdownEvent event) {
        vertx.cancelTimer(timer);
    }

    /**
     * Publishes what the outbox holds, oldest first, each deleted once confirmed. Two instances may publish one row
     * twice, with the same message id, which consumers deduplicate on; none is lost.
     */
    void relay() {
        if (!relaying.compareAndSet(false, true)) {
            return;
        }
        pool.query(PENDING).execute()
                .onItem().transformToMulti(rows -> Multi.createFrom().iterable(rows))
                .onItem().transformToUniAndConcatenate(this::publish)
                .collect().last()
                .eventually(() -> relaying.set(false))
                .subscribe().with(done -> { }, failure -> LOG.warnf("Operational events not published yet (trying again"
                        + " in a second): %s", failure.toString()));
    }

    private Uni<Void> publish(Row row) {
        String id = row.getString("id");
        return publisher.publish(id, row.getString("event_type"), row.getString("body").getBytes(StandardCharsets.UTF_8))
                .chain(() -> pool.preparedQuery(PUBLISHED).execute(Tuple.of(id)))
                .replaceWithVoid();
    }
}
