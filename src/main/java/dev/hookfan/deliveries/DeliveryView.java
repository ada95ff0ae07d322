package dev.hookfan.deliveries;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.vertx.mutiny.sqlclient.Row;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;

/** A delivery as the API shows it; the payload and attempts only when one delivery is asked for. */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record DeliveryView(String id, String webhookId, String organizationId, String messageId, String eventType,
                           DeliveryStatus status, int attempts, Instant nextAttemptAt, Instant createdAt,
                           Instant deliveredAt, String lastError,
                           @JsonRawValue @JsonInclude(JsonInclude.Include.NON_NULL) String payload,
                           @JsonInclude(JsonInclude.Include.NON_NULL) List<AttemptView> attemptHistory) {

    /** A row of {@link DeliveryRepository}'s views; with the body, the payload is exactly what the subscriber gets. */
    static DeliveryView of(Row row, boolean withPayload) {
        String id = row.getString("id");
        return new DeliveryView(id, row.getString("webhook_id"), row.getString("organization_id"),
                row.getString("message_id"), row.getString("event_type"), DeliveryStatus.valueOf(row.getString("status")),
                row.getInteger("attempts"), instant(row.getOffsetDateTime("next_attempt_at")),
                instant(row.getOffsetDateTime("created_at")), instant(row.getOffsetDateTime("delivered_at")),
                row.getString("last_error"), withPayload ? DeliveryBody.of(id, row.getString("body")) : null, null);
    }

    DeliveryView withAttempts(List<AttemptView> history) {
        return new DeliveryView(id, webhookId, organizationId, messageId, eventType, status, attempts, nextAttemptAt,
                createdAt, deliveredAt, lastError, payload, history);
    }

    private static Instant instant(OffsetDateTime at) {
        return at == null ? null : at.toInstant();
    }

    @RegisterForReflection
    public record AttemptView(int attempt, Instant startedAt, int durationMs, Integer responseStatus,
                              String responseBody, String error) {
        static AttemptView of(Row row) {
            return new AttemptView(row.getInteger("attempt_number"), row.getOffsetDateTime("started_at").toInstant(),
                    row.getInteger("duration_ms"), row.getInteger("response_status"), row.getString("response_body"),
                    row.getString("error"));
        }
    }
}
