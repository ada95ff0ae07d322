package dev.hookfan.sending;

import dev.hookfan.deliveries.DeliveryConfig;
import dev.hookfan.sending.AttemptOutcome.Delivered;
import dev.hookfan.sending.AttemptOutcome.Exhausted;
import dev.hookfan.sending.AttemptOutcome.Failed;
import dev.hookfan.sending.AttemptOutcome.Gone;
import dev.hookfan.sending.AttemptOutcome.Retrying;
import dev.hookfan.text.Truncate;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Writes an attempt and its consequences (status, next attempt, webhook health) atomically. */
@Singleton
class AttemptRecorder {

    private static final Logger LOG = Logger.getLogger(AttemptRecorder.class);
    /** The longest error kept on a delivery or an attempt. */
    private static final int MAX_ERROR = 1000;

    private static final String INSERT_ATTEMPT = "insert into delivery_attempt (delivery_id, attempt_number, started_at,"
            + " duration_ms, response_status, response_body, error) values ($1, $2, $3, $4, $5, $6, $7)";
    /** Each consequence holds only while the row still carries the lease this attempt was claimed with. */
    private static final String RESCHEDULED = "update webhook_delivery set attempts = $2,"
            + " next_attempt_at = now() + $3 * interval '1 millisecond', lease_until = null, last_error = $4"
            + " where id = $1 and status = 'pending' and lease_until = $5";
    private static final String FAILED = "update webhook_delivery set status = 'failed', attempts = $2,"
            + " next_attempt_at = null, lease_until = null, last_error = $3 where id = $1 and status = 'pending' and lease_until = $4";
    private static final String GONE = "update webhook_delivery set attempts = $2 where id = $1 and lease_until = $3";
    /** A failure more than $2 ms after the webhook's previous one starts a new streak (see {@link #streakGap}). */
    private static final String FAILING = "update webhook set last_failure_at = now(), failing_since = case"
            + " when failing_since is null or last_failure_at is null or last_failure_at < now() - $2 * interval '1 millisecond'"
            + " then now() else failing_since end where id = $1 returning failing_since";
    /** A new version, so an API update that read the webhook before this fails rather than re-enable it. */
    private static final String DISABLE = "update webhook set enabled = false, disabled_reason = $2, updated_at = now(),"
            + " version = version + 1 where id = $1";

    private final Pool pool;
    private final DeliveryConfig config;
    /** The common case, a success, in one statement shared by concurrent successes (see {@link DeliveredRecords}). */
    private final DeliveredRecords delivered;
    private final PendingCancellation cancellation;

    private final Duration streakGap;

    AttemptRecorder(Pool pool, DeliveryConfig config, PendingCancellation cancellation) {
        this.pool = pool;
        this.cancellation = cancellation;
        this.config = config;
        this.delivered = new DeliveredRecords(pool);
        this.streakGap = streakGap(config);
    }

    /**
     * The longest silence between two failures of one streak: a webhook that is down and has work pending fails at
     * least once per retry pause, so a longer silence means nobody knows it stayed down (a fifth of disable-after at
     * least, so a quiet webhook still needs failures throughout the window).
     */
    static Duration streakGap(DeliveryConfig config) {
        Duration longestPause = config.retrySchedule().stream().max(Duration::compareTo).orElse(Duration.ZERO);
        Duration jittered = Duration.ofMillis(Math.round(longestPause.toMillis() * (1 + config.jitter())));
        Duration fifth = config.disableAfter().dividedBy(5);
        return jittered.compareTo(fifth) > 0 ? jittered : fifth;
    }

    Uni<Void> record(ClaimedDelivery delivery, AttemptOutcome outcome) {
        return Uni.createFrom().voidItem()
                .invoke(() -> MDC.put("deliveryId", delivery.id()))
                .chain(() -> outcome instanceof Failed failed
                        ? pool.withTransaction(connection -> recordFailed(connection, delivery, failed))
                        : delivered.record(delivery, (Delivered) outcome))
                .eventually(() -> MDC.remove("deliveryId"));
    }

    /** The failure's consequences, then the attempt's row; neither if the lease is no longer this attempt's. */
    private Uni<Void> recordFailed(SqlConnection connection, ClaimedDelivery delivery, Failed failed) {
        Uni<Boolean> held;
        if (failed instanceof Gone) {
            held = gone(connection, delivery);
        } else if (failed instanceof Retrying retrying) {
            held = retrying(connection, delivery, retrying);
        } else {
            held = exhausted(connection, delivery, (Exhausted) failed);
        }
        return held.chain(stillHeld -> stillHeld
                ? execute(connection, INSERT_ATTEMPT, attempt(delivery, failed))
                : Uni.createFrom().voidItem().invoke(() -> LOG.warnf("Delivery %s: attempt %d not recorded, its lease was"
                        + " lost (another instance holds it now)", delivery.id(), delivery.attemptNumber())));
    }

    /** Each answers whether the lease was still this attempt's; if not, it wrote nothing. */
    private Uni<Boolean> gone(SqlConnection connection, ClaimedDelivery delivery) {
        String reason = "the subscriber answered 410 Gone to delivery " + delivery.id();
        return updated(connection, GONE, Tuple.of(delivery.id(), delivery.attemptNumber(), delivery.lease()))
                .call(held -> {
                    if (!held) {
                        return Uni.createFrom().voidItem();
                    }
                    LOG.infof("Webhook %s disabled: %s", delivery.webhookId(), reason);
                    return disable(connection, delivery.webhookId(), reason);
                });
    }

    private Uni<Boolean> retrying(SqlConnection connection, ClaimedDelivery delivery, Retrying retrying) {
        return updated(connection, RESCHEDULED, Tuple.tuple().addString(delivery.id()).addInteger(delivery.attemptNumber())
                .addLong(retrying.pause().toMillis()).addString(lastError(retrying)).addOffsetDateTime(delivery.lease()))
                .call(held -> held ? trackFailure(connection, delivery.webhookId()) : Uni.createFrom().voidItem());
    }

    private Uni<Boolean> exhausted(SqlConnection connection, ClaimedDelivery delivery, Exhausted exhausted) {
        return updated(connection, FAILED, Tuple.of(delivery.id(), delivery.attemptNumber(), lastError(exhausted), delivery.lease()))
                .call(held -> {
                    if (!held) {
                        return Uni.createFrom().voidItem();
                    }
                    Uni<Void> announced = OperationalEvents.announces(delivery.eventType())
                            ? execute(connection, OperationalEvents.DELIVERY_EXHAUSTED, Tuple.of(delivery.id(), delivery.webhookId()))
                            : Uni.createFrom().voidItem();
                    return announced.chain(() -> trackFailure(connection, delivery.webhookId()));
                });
    }

    private static String lastError(Failed failed) {
        return Truncate.toLength(failed.failure().describe(), MAX_ERROR);
    }

    private static Uni<Boolean> updated(SqlConnection connection, String sql, Tuple arguments) {
        return connection.preparedQuery(sql).execute(arguments).map(rows -> rows.rowCount() > 0);
    }

    private Uni<Void> trackFailure(SqlConnection connection, String webhookId) {
        return connection.preparedQuery(FAILING).execute(Tuple.of(webhookId, streakGap.toMillis()))
                .chain(rows -> {
                    if (!config.autoDisable() || rows.size() == 0) {
                        return Uni.createFrom().voidItem();
                    }
                    OffsetDateTime since = rows.iterator().next().getOffsetDateTime("failing_since");
                    if (since == null || since.plus(config.disableAfter()).isAfter(OffsetDateTime.now(ZoneOffset.UTC))) {
                        return Uni.createFrom().voidItem();
                    }
                    String reason = "every attempt failed since " + since + ", with no success and no pause longer than "
                            + streakGap + " between failures (hookfan.delivery.disable-after = " + config.disableAfter() + ")";
                    LOG.infof("Webhook %s disabled: %s", webhookId, reason);
                    return disable(connection, webhookId, reason);
                });
    }

    private Uni<Void> disable(SqlConnection connection, String webhookId, String reason) {
        return execute(connection, DISABLE, Tuple.of(webhookId, reason))
                .chain(() -> execute(connection, OperationalEvents.WEBHOOK_DISABLED, Tuple.of(webhookId)))
                .chain(() -> cancellation.cancel(connection, webhookId, "webhook disabled: " + reason));
    }

    /** The attempt's row: the status and body it was answered with, or the error of an attempt that got no answer. */
    private static Tuple attempt(ClaimedDelivery delivery, Failed failed) {
        Tuple row = Tuple.tuple()
                .addString(delivery.id())
                .addInteger(delivery.attemptNumber())
                .addOffsetDateTime(failed.startedAt().atOffset(ZoneOffset.UTC))
                .addInteger((int) Math.min(Integer.MAX_VALUE, failed.durationMs()));
        if (failed.failure() instanceof AttemptFailure.Answered answered) {
            return row.addInteger(answered.status()).addString(answered.body()).addString(null);
        }
        return row.addInteger(null).addString(null).addString(Truncate.toLength(failed.failure().describe(), MAX_ERROR));
    }

    private static Uni<Void> execute(SqlConnection connection, String sql, Tuple arguments) {
        return connection.preparedQuery(sql).execute(arguments).replaceWithVoid();
    }
}
