package dev.hookfan.sending;

import io.vertx.mutiny.sqlclient.Row;

import java.util.Arrays;
import java.util.List;

/** A delivery this instance holds the lease on, with what sending it needs. */
record ClaimedDelivery(String id, String webhookId, String organizationId, String messageId, String eventType,
                       String payload, String traceparent, int attemptNumber, String url, List<String> secrets) {

    static final String COLUMNS = "d.id, d.webhook_id, d.organization_id, d.message_id, d.event_type, d.payload,"
            + " d.traceparent, d.attempts, w.url, (select array_agg(s.secret order by s.created_at desc) from webhook_secret s"
            + " where s.webhook_id = w.id and (s.expires_at is null or s.expires_at > now())) as secrets";

    static ClaimedDelivery of(Row row) {
        String[] secrets = row.getArrayOfStrings("secrets");
        return new ClaimedDelivery(row.getString("id"), row.getString("webhook_id"), row.getString("organization_id"),
                row.getString("message_id"), row.getString("event_type"), row.getString("payload"),
                row.getString("traceparent"), row.getInteger("attempts") + 1, row.getString("url"),
                secrets == null ? List.of() : Arrays.asList(secrets));
    }
}
