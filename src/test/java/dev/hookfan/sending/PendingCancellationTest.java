package dev.hookfan.sending;

import dev.hookfan.support.Webhooks;
import dev.hookfan.support.Database;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
class PendingCancellationTest {

    static final String ORG = "org_cancellation";

    @Inject
    PendingCancellation cancellation;

    String webhookId;

    @BeforeEach
    void start() {
        Database.reset();
        // Disabled, so the sender leaves its due row alone while the sweep is looked at.
        webhookId = Webhooks.create(ORG, "http://127.0.0.1:9/hook", "\"enabled\":false");
    }

    @Test
    void should_cancel_the_due_deliveries_of_a_webhook_that_no_longer_exists_and_only_those() {
        row("d_orphan_due", "0123456789abcdef0123456789abcdef", "now()");
        row("d_orphan_fresh", "0123456789abcdef0123456789abcdef", "null");
        row("d_live_due", webhookId, "now()");

        cancellation.orphans().await().atMost(Duration.ofSeconds(10));

        assertEquals(List.of(List.of("d_live_due", "pending", ""), List.of("d_orphan_due", "cancelled", "webhook deleted"),
                List.of("d_orphan_fresh", "pending", "")), Database.query("select id, status, coalesce(last_error, '')"
                + " from webhook_delivery order by id"));
    }

    @Test
    void should_cancel_a_webhooks_pending_deliveries_keeping_the_others() {
        row("d_pending", webhookId, "now()");
        row("d_fresh", webhookId, "null");
        Database.update("update webhook_delivery set status = 'delivered', next_attempt_at = null where id = 'd_fresh'");

        cancellation.cancel(webhookId, "webhook deleted").await().atMost(Duration.ofSeconds(10));

        assertEquals(List.of(List.of("d_fresh", "delivered"), List.of("d_pending", "cancelled")),
                Database.query("select id, status from webhook_delivery order by id"));
    }

    private void row(String id, String webhook, String nextAttemptAt) {
        Database.pendingDelivery(id, webhook, ORG, nextAttemptAt);
    }
}
