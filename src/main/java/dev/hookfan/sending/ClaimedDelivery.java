package dev.hookfan.sending;

import dev.hookfan.deliveries.DeliveryBody;
import io.vertx.mutiny.sqlclient.Row;

import java.time.OffsetDateTime;

/**
 * A delivery this instance holds the lease on; where to send it comes from the webhook directory. The lease is the
 * one it claimed with: an attempt is recorded only while the row still carries it. The event's body is shared by
 * every delivery of that event claimed together; null only if the event is missing (never written by Hookfan).
 */
record ClaimedDelivery(String id, String webhookId, String organizationId, String messageId, String eventType,
                       String eventBody, String traceparent, int attemptNumber, OffsetDateTime lease) {

    /** The exact body this delivery sends, built per send: the same bytes on every attempt. */
    String payload() {
        return DeliveryBody.of(id, eventBody);
    }

    static ClaimedDelivery of(Row row, String eventBody) {
        return new ClaimedDelivery(row.getString("id"), row.getString("webhook_id"), row.getString("organization_id"),
                row.getString("message_id"), row.getString("event_type"), eventBody,
                row.getString("traceparent"), row.getInteger("attempts") + 1, row.getOffsetDateTime("lease_until"));
    }
}
