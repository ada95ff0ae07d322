package dev.hookfan.sending;

import dev.hookfan.batching.GroupCommit;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * Records successful attempts by group commit ({@link GroupCommit}): a few statements at a time, and every success
 * that arrives while they run goes into the next one. Alone, a success is written at once; under load, many share a
 * round trip and a commit.
 * Each caller completes only when its own row is committed, so a permit or a lease is never released early.
 */
final class DeliveredRecords {

    /** A batch this large is written before the rest; bounded by what is in flight anyway. */
    static final int MAX_BATCH = 256;
    /** Two at a time: one left the sender waiting on each statement; more made batches small, each a WAL flush. */
    static final int BATCHES_IN_FLIGHT = 2;

    /**
     * One statement for the whole batch: the success goes onto the delivery's own row, with no attempt row, index
     * entries or foreign-key lock. Only a delivery that is no longer pending (cancelled while its attempt was in
     * flight) gets an attempt row instead.
     */
    private static final String RECORD = "with done as (select * from unnest($1::varchar[], $2::int[], $3::timestamptz[],"
            + " $4::int[], $5::int[], $6::varchar[], $7::varchar[], $8::timestamptz[]) as t(delivery_id, attempt_number,"
            + " started_at, duration_ms, response_status, response_body, webhook_id, lease)),"
            + " delivered as (update webhook_delivery d set status = 'delivered', attempts = done.attempt_number,"
            + " delivered_at = now(), next_attempt_at = null, lease_until = null, last_error = null,"
            + " success_started_at = done.started_at, success_duration_ms = done.duration_ms,"
            + " success_status = done.response_status, success_body = done.response_body"
            + " from done where d.id = done.delivery_id and d.status = 'pending' and d.lease_until = done.lease returning d.id),"
            // Cancelled while its attempt was in flight: the attempt is kept. Lost the lease to another instance: not.
            + " elsewhere as (insert into delivery_attempt (delivery_id, attempt_number, started_at, duration_ms,"
            + " response_status, response_body) select done.delivery_id, attempt_number, started_at, duration_ms, response_status,"
            + " response_body from done join webhook_delivery d on d.id = done.delivery_id and d.status <> 'pending'"
            + " where done.delivery_id not in (select id from delivered)),"
            // The webhooks' health: failing no more, with whether their failure had been announced.
            + " healthy as (update webhook w set failing_since = null, failure_announced = false from (select id,"
            + " failure_announced from webhook where id in (select webhook_id from done) and (failing_since is not null"
            + " or failure_announced)) old where w.id = old.id returning w.id, w.organization_id, w.url, w.last_failure_at,"
            + " old.failure_announced as announced)"
            // Those announced are announced recovered, in the outbox (see OperationalEvents); the last failure before
            // this success makes the fact, and so the event's id, unique.
            + " insert into operational_event (id, organization_id, event_type, body) select encode(sha256(convert_to("
            + "'hookfan.webhook.recovered/' || r.id || '/' || coalesce(r.last_failure_at::text, ''), 'UTF8')), 'hex'),"
            + " r.organization_id, 'hookfan.webhook.recovered', json_build_object('type', 'hookfan.webhook.recovered',"
            + " 'organizationId', r.organization_id, 'occurredAt', to_char(now() at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'),"
            + " 'data', json_build_object('webhookId', r.id, 'url', r.url))::text"
            + " from healthy r where r.announced on conflict (id) do nothing";

    private record Success(ClaimedDelivery delivery, AttemptOutcome.Delivered outcome) {
    }

    private final GroupCommit<Success, Void> writes;

    DeliveredRecords(Pool pool) {
        this.writes = new GroupCommit<>("delivered attempts", MAX_BATCH, BATCHES_IN_FLIGHT, batch -> pool.preparedQuery(RECORD)
                .execute(arguments(batch))
                .map(written -> Collections.nCopies(batch.size(), (Void) null)));
    }

    Uni<Void> record(ClaimedDelivery delivery, AttemptOutcome.Delivered outcome) {
        return writes.submit(new Success(delivery, outcome));
    }

    /** In id order, as a claim planned as an index scan locks them, should one meet them (a lease that ran out mid-attempt). */
    private static Tuple arguments(List<Success> unordered) {
        List<Success> batch = unordered.stream().sorted(Comparator.comparing(success -> success.delivery().id())).toList();
        int size = batch.size();
        String[] ids = new String[size];
        Integer[] attempts = new Integer[size];
        OffsetDateTime[] started = new OffsetDateTime[size];
        Integer[] durations = new Integer[size];
        Integer[] statuses = new Integer[size];
        String[] bodies = new String[size];
        String[] webhooks = new String[size];
        OffsetDateTime[] leases = new OffsetDateTime[size];
        for (int i = 0; i < size; i++) {
            ClaimedDelivery delivery = batch.get(i).delivery();
            AttemptOutcome.Delivered outcome = batch.get(i).outcome();
            ids[i] = delivery.id();
            attempts[i] = delivery.attemptNumber();
            started[i] = outcome.startedAt().atOffset(ZoneOffset.UTC);
            durations[i] = (int) Math.min(Integer.MAX_VALUE, outcome.durationMs());
            statuses[i] = outcome.status();
            bodies[i] = outcome.body();
            webhooks[i] = delivery.webhookId();
            leases[i] = delivery.lease();
        }
        return Tuple.tuple().addArrayOfString(ids).addArrayOfInteger(attempts).addArrayOfOffsetDateTime(started)
                .addArrayOfInteger(durations).addArrayOfInteger(statuses).addArrayOfString(bodies).addArrayOfString(webhooks)
                .addArrayOfOffsetDateTime(leases);
    }
}
