package dev.hookfan.deliveries;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.vertx.mutiny.sqlclient.Row;

import java.time.Instant;
import java.util.List;

/** A delivery as the API shows it; the payload and attempts only when one delivery is asked for. */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record DeliveryView(String id, String webhookId, String organizationId, String messageId, String eventType,
                           DeliveryStatus status, int attempts, Instant nextAttemptAt, Instant createdAt,
                           Instant deliveredAt, String lastError,
                           @JsonRawValue @JsonInclude(JsonInclude.Include.NON_NULL) String payload,
                           @JsonInclude(JsonInclude.Include.NON_NULL) List<AttemptView> attemptHistory) {

    static DeliveryView summary(WebhookDelivery delivery) {
        return of(delivery, null, null);
    }

    static DeliveryView of(WebhookDelivery delivery, String payload, List<AttemptView> history) {
        return new DeliveryView(delivery.id, delivery.webhookId, delivery.organizationId, delivery.messageId,
                delivery.eventType, delivery.status, delivery.attempts, delivery.nextAttemptAt, delivery.createdAt,
                delivery.deliveredAt, delivery.lastError, payload, history);
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
