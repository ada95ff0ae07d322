package dev.hookfan.sending;

import io.vertx.mutiny.sqlclient.Row;

import java.time.OffsetDateTime;

/**
 * A delivery this instance holds the lease on; where to send it comes from the webhook directory. The lease is the
 * one it claimed with: an attempt is recorded only while the row still carries it.
 */
record ClaimedDelivery(String id, String webhookId, String organizationId, String messageId, String eventType,
                       String payload, String traceparent, int attemptNumber, OffsetDateTime lease) {

    static final String COLUMNS = "d.id, d.webhook_id, d.organization_id, d.message_id, d.event_type, d.payload,"
            + " d.traceparent, d.attempts, d.lease_until";

    static ClaimedDelivery of(Row row) {
        return new ClaimedDelivery(row.getString("id"), row.getString("webhook_id"), row.getString("organization_id"),
                row.getString("message_id"), row.getString("event_type"), row.getString("payload"),
                row.getString("traceparent"), row.getInteger("attempts") + 1, row.getOffsetDateTime("lease_until"));
    }
}
