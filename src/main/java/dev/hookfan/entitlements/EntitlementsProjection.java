package dev.hookfan.entitlements;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookfan.api.Cursor;
import dev.hookfan.events.IntegrationEvent;
import dev.hookfan.events.IntegrationEventHandler;
import dev.hookfan.events.MalformedEventException;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * Mirrors Billing's entitlements, one row per organization. Events can arrive out of order, so one atomic
 * upsert lets only a newer updatedAt win; applying the same event twice leaves the same row.
 */
@Singleton
public class EntitlementsProjection implements IntegrationEventHandler {

    static final String EVENT_TYPE = "billing.entitlements_updated";

    private static final String UPSERT = "insert into organization_entitlements"
            + " (organization_id, limits, max_webhooks, updated_at, received_at) values ($1, $2, $3, $4, $5)"
            + " on conflict (organization_id) do update set limits = excluded.limits, max_webhooks = excluded.max_webhooks,"
            + " updated_at = excluded.updated_at, received_at = excluded.received_at"
            + " where excluded.updated_at > organization_entitlements.updated_at";

    private final Pool pool;

    EntitlementsProjection(Pool pool) {
        this.pool = pool;
    }

    @Override
    public boolean takes(String eventType) {
        return EVENT_TYPE.equals(eventType);
    }

    @Override
    public Uni<Void> handle(IntegrationEvent event) {
        Instant updatedAt = updatedAt(event.data());
        JsonNode limits = event.data().path("limits");
        if (!limits.isObject()) {
            throw new MalformedEventException("data.limits of " + EVENT_TYPE + " must be a JSON object");
        }
        JsonNode maxWebhooks = limits.get("maxWebhooks");
        if (maxWebhooks != null && !maxWebhooks.isNull() && !(maxWebhooks.canConvertToInt() && maxWebhooks.isIntegralNumber() && maxWebhooks.asInt() >= 0)) {
            throw new MalformedEventException("data.limits.maxWebhooks must be a non-negative integer");
        }
        Integer max = maxWebhooks == null || maxWebhooks.isNull() ? null : maxWebhooks.asInt();
        // One statement, atomic on its own: no transaction to open, straight on the reactive pool like every handler.
        return pool.preparedQuery(UPSERT).execute(Tuple.tuple().addString(event.organizationId())
                        .addString(limits.toString()).addInteger(max)
                        .addOffsetDateTime(updatedAt.atOffset(ZoneOffset.UTC))
                        .addOffsetDateTime(Cursor.now().atOffset(ZoneOffset.UTC)))
                .replaceWithVoid();
    }

    private static Instant updatedAt(JsonNode data) {
        JsonNode node = data.get("updatedAt");
        if (node == null || !node.isTextual()) {
            throw new MalformedEventException("data.updatedAt of " + EVENT_TYPE + " is required (ISO-8601)");
        }
        try {
            return Instant.parse(node.asText());
        } catch (DateTimeParseException e) {
            throw new MalformedEventException("data.updatedAt must be an ISO-8601 instant");
        }
    }
}
