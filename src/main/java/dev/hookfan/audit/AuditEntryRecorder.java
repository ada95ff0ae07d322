package dev.hookfan.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookfan.api.Cursor;
import dev.hookfan.events.IntegrationEvent;
import dev.hookfan.events.IntegrationEventContext;
import dev.hookfan.events.IntegrationEventHandler;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.UUID;

/**
 * Appends one audit entry per consumed event and organization. The message id itself is the key: a retry or
 * a concurrent copy finds its entry, or conflicts on the unique index and adds nothing.
 */
@ApplicationScoped
public class AuditEntryRecorder implements IntegrationEventHandler {

    private final IntegrationEventContext context;
    private final AuditConfig config;
    private final ObjectMapper mapper;

    AuditEntryRecorder(IntegrationEventContext context, AuditConfig config, ObjectMapper mapper) {
        this.context = context;
        this.config = config;
        this.mapper = mapper;
    }

    @Override
    public boolean takes(String eventType) {
        return config.eventTypes().contains("*") || config.eventTypes().contains(eventType);
    }

    @Override
    public Uni<Void> handle(IntegrationEvent event) {
        // An audit entry only ever comes from a consumed message: without its id, something is wrong upstream.
        String messageId = context.messageId().orElseThrow(() -> new IllegalStateException(
                "An audit entry is only recorded from a consumed message, and " + event.type() + " came without one"));
        // The lookup runs outside a transaction: a replay costs one read, no BEGIN or COMMIT.
        return Panache.withSession(() -> AuditEntry
                .count("sourceMessageId = ?1 and organizationId = ?2", messageId, event.organizationId())
                .chain(existing -> existing > 0 ? Uni.createFrom().voidItem() : Panache.withTransaction(() -> insert(messageId, event))));
    }

    private Uni<Void> insert(String messageId, IntegrationEvent event) {
        return Panache.getSession().chain(session -> session
                .createNativeQuery("insert into audit_entry (id, organization_id, source_message_id, event_type, occurred_at,"
                        + " recorded_at, data) values (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
                        + " on conflict (source_message_id, organization_id) do nothing")
                .setParameter(1, UUID.randomUUID().toString().replace("-", ""))
                .setParameter(2, event.organizationId())
                .setParameter(3, messageId)
                .setParameter(4, event.type())
                .setParameter(5, event.occurredAt())
                .setParameter(6, Cursor.now())
                .setParameter(7, event.data().toString())
                .executeUpdate()
                .replaceWithVoid());
    }
}
