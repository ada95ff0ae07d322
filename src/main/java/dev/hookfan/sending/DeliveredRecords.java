package dev.hookfan.sending;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import org.jboss.logging.Logger;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Records successful attempts group-commit style: one statement at a time, and every success that arrives while it
 * runs goes into the next one. Alone, a success is written at once; under load, many share a round trip and a commit.
 * Each caller completes only when its own row is committed, so a permit or a lease is never released early.
 */
final class DeliveredRecords {

    private static final Logger LOG = Logger.getLogger(DeliveredRecords.class);

    /** A batch this large is written before the rest; bounded by what is in flight anyway. */
    static final int MAX_BATCH = 256;

    private static final String RECORD = "with done as (select * from unnest($1::varchar[], $2::int[], $3::timestamptz[],"
            + " $4::int[], $5::int[], $6::varchar[], $7::varchar[]) as t(delivery_id, attempt_number, started_at, duration_ms,"
            + " response_status, response_body, webhook_id)),"
            + " attempt as (insert into delivery_attempt (delivery_id, attempt_number, started_at, duration_ms, response_status,"
            + " response_body) select delivery_id, attempt_number, started_at, duration_ms, response_status, response_body from done),"
            + " delivered as (update webhook_delivery d set status = 'delivered', attempts = done.attempt_number,"
            + " delivered_at = now(), next_attempt_at = null, lease_until = null, last_error = null"
            + " from done where d.id = done.delivery_id and d.status = 'pending')"
            + " update webhook w set failing_since = null where w.id in (select webhook_id from done) and w.failing_since is not null";

    private record Success(ClaimedDelivery delivery, AttemptOutcome outcome, UniEmitter<? super Void> done) {
    }

    private final Pool pool;
    private final Queue<Success> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean writing = new AtomicBoolean();

    DeliveredRecords(Pool pool) {
        this.pool = pool;
    }

    Uni<Void> record(ClaimedDelivery delivery, AttemptOutcome outcome) {
        return Uni.createFrom().emitter(done -> {
            waiting.add(new Success(delivery, outcome, done));
            writeNext();
        });
    }

    private void writeNext() {
        if (!writing.compareAndSet(false, true)) {
            return;
        }
        List<Success> batch = new ArrayList<>();
        for (Success next; batch.size() < MAX_BATCH && (next = waiting.poll()) != null; ) {
            batch.add(next);
        }
        if (batch.isEmpty()) {
            writing.set(false);
            // A success queued between the poll and the reset would otherwise wait for the next arrival.
            if (!waiting.isEmpty()) {
                writeNext();
            }
            return;
        }
        pool.preparedQuery(RECORD).execute(arguments(batch)).subscribe().with(
                written -> {
                    batch.forEach(success -> success.done().complete(null));
                    writtenOrFailed();
                },
                failure -> {
                    // One bad row must not cost the others their record: each is written alone instead.
                    LOG.warnf("A batch of %d delivered attempts failed, recording them one by one: %s", batch.size(), failure.toString());
                    batch.forEach(this::recordAlone);
                    writtenOrFailed();
                });
    }

    private void writtenOrFailed() {
        writing.set(false);
        writeNext();
    }

    private void recordAlone(Success success) {
        pool.preparedQuery(RECORD).execute(arguments(List.of(success))).subscribe().with(
                written -> success.done().complete(null),
                failure -> success.done().fail(failure));
    }

    private static Tuple arguments(List<Success> batch) {
        int size = batch.size();
        String[] ids = new String[size];
        Integer[] attempts = new Integer[size];
        OffsetDateTime[] started = new OffsetDateTime[size];
        Integer[] durations = new Integer[size];
        Integer[] statuses = new Integer[size];
        String[] bodies = new String[size];
        String[] webhooks = new String[size];
        for (int i = 0; i < size; i++) {
            ClaimedDelivery delivery = batch.get(i).delivery();
            AttemptOutcome outcome = batch.get(i).outcome();
            ids[i] = delivery.id();
            attempts[i] = delivery.attemptNumber();
            started[i] = outcome.startedAt().atOffset(ZoneOffset.UTC);
            durations[i] = (int) Math.min(Integer.MAX_VALUE, outcome.durationMs());
            statuses[i] = outcome.status();
            bodies[i] = outcome.responseBody();
            webhooks[i] = delivery.webhookId();
        }
        return Tuple.tuple().addArrayOfString(ids).addArrayOfInteger(attempts).addArrayOfOffsetDateTime(started)
                .addArrayOfInteger(durations).addArrayOfInteger(statuses).addArrayOfString(bodies).addArrayOfString(webhooks);
    }
}
