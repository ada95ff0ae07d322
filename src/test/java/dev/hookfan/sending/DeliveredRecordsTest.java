package dev.hookfan.sending;

import dev.hookfan.support.Database;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
class DeliveredRecordsTest {

    static final String WEBHOOK = "wh_records_test";

    @Inject
    Pool pool;

    @BeforeEach
    void start() {
        Database.reset();
        dropFault();
    }

    @AfterEach
    void stop() {
        dropFault();
    }

    static void dropFault() {
        Database.update("drop trigger if exists delivered_fault on webhook_delivery");
        Database.update("drop function if exists delivered_fault()");
    }

    /**
     * Pending rows, as the fan-out writes them (no next attempt, V8); the sender is kept off them by a lease far in the
     * future. With a next attempt they would be due, and their webhook exists nowhere: the orphan sweep (PendingCancellation),
     * every 15 s, cancelled them once mid-test.
     */
    /** The lease the rows carry, as a claim would have returned it. */
    static final java.time.OffsetDateTime LEASE = java.time.OffsetDateTime.parse("2099-01-01T00:00:00Z");

    static List<ClaimedDelivery> pending(int count) {
        List<ClaimedDelivery> claimed = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = String.format("d%031d", i);
            Database.update("insert into webhook_delivery (id, webhook_id, organization_id, event_id, status,"
                    + " attempts, lease_until, created_at) values (?, ?, 'org_records', ?,"
                    + " 'pending', 0, '2099-01-01T00:00:00Z', now())", id, WEBHOOK, Database.EVENT);
            claimed.add(new ClaimedDelivery(id, WEBHOOK, "org_records", null, "a.b", Database.EVENT_BODY, null, 1, LEASE));
        }
        return claimed;
    }

    static AttemptOutcome.Delivered answered200() {
        return new AttemptOutcome.Delivered(Instant.now(), 3, 200, "ok");
    }

    /** Recorded back to back: the first goes alone, the others queue behind it and share the next statement. */
    static List<CompletableFuture<Void>> recordAll(DeliveredRecords records, List<ClaimedDelivery> claimed) {
        return claimed.stream().map(delivery -> records.record(delivery, answered200()).subscribeAsCompletionStage()).toList();
    }

    @Test
    void should_record_each_success_once_on_its_own_delivery_row_when_many_share_a_statement() throws Exception {
        List<ClaimedDelivery> claimed = pending(50);
        for (CompletableFuture<Void> recorded : recordAll(new DeliveredRecords(pool), claimed)) {
            recorded.get(10, TimeUnit.SECONDS);
        }
        assertEquals(50, Database.count("select count(*) from webhook_delivery where status = 'delivered' and attempts = 1"
                + " and lease_until is null and delivered_at is not null and success_status = 200 and success_body = 'ok'"
                + " and success_duration_ms = 3 and success_started_at is not null"));
        assertEquals(0, Database.count("select count(*) from delivery_attempt"));
        assertEquals(50, Database.count("select count(*) from delivery_attempt_history where attempt_number = 1"
                + " and response_status = 200 and error is null"));
        assertEquals(50, Database.count("select count(distinct delivery_id) from delivery_attempt_history"));
    }

    @Test
    void should_keep_a_success_for_a_delivery_cancelled_meanwhile_as_an_attempt_row_and_leave_it_cancelled() throws Exception {
        List<ClaimedDelivery> claimed = pending(3);
        String cancelled = claimed.get(1).id();
        Database.update("update webhook_delivery set status = 'cancelled', next_attempt_at = null where id = ?", cancelled);

        for (CompletableFuture<Void> recorded : recordAll(new DeliveredRecords(pool), claimed)) {
            recorded.get(10, TimeUnit.SECONDS);
        }
        assertEquals(List.of(List.of("cancelled", 0)), Database.query("select status, attempts from webhook_delivery where id = ?", cancelled));
        assertEquals(List.of(List.of(cancelled, 1, 200)),
                Database.query("select delivery_id, attempt_number, response_status from delivery_attempt"));
        assertEquals(3, Database.count("select count(*) from delivery_attempt_history where response_status = 200"));
    }

    @Test
    void should_still_record_the_others_when_one_row_of_a_shared_statement_fails() throws Exception {
        List<ClaimedDelivery> claimed = pending(10);
        String refused = claimed.get(5).id();
        Database.update("create function delivered_fault() returns trigger language plpgsql as $$ begin"
                + " if new.id = '" + refused + "' and new.status = 'delivered' then raise exception 'attempt refused for the test';"
                + " end if; return new; end $$");
        Database.update("create trigger delivered_fault before update on webhook_delivery for each row execute function delivered_fault()");

        List<CompletableFuture<Void>> recorded = recordAll(new DeliveredRecords(pool), claimed);
        for (int i = 0; i < claimed.size(); i++) {
            if (i == 5) {
                CompletableFuture<Void> failed = recorded.get(i);
                ExecutionException error = assertThrows(ExecutionException.class, () -> failed.get(10, TimeUnit.SECONDS));
                assertTrue(error.getCause().getMessage().contains("attempt refused for the test"), error.getCause().toString());
            } else {
                recorded.get(i).get(10, TimeUnit.SECONDS);
            }
        }
        assertEquals(9, Database.count("select count(*) from webhook_delivery where status = 'delivered'"));
        assertEquals(9, Database.count("select count(*) from delivery_attempt_history"));
        // The refused one keeps its lease: it is sent again when the lease runs out, never marked delivered unrecorded.
        assertEquals(List.of(List.of("pending", 0)), Database.query("select status, attempts from webhook_delivery where id = ?", refused));
    }
}
