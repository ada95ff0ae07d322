package dev.hookfan.audit;

import dev.hookfan.api.Cursor;
import dev.hookfan.events.IntegrationEvent;
import dev.hookfan.events.IntegrationEventContext;
import dev.hookfan.events.IntegrationEventHandler;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;

import java.util.UUID;

/**
 * Appends one audit entry per consumed event and organization. The message id itself is the key: a retry or
 * a concurrent copy finds its entry, or conflicts on the unique index and adds nothing.
 */
@Singleton
public class AuditEntryRecorder implements IntegrationEventHandler {

    private final IntegrationEventContext context;
    private final AuditConfig config;
    private final AuditEntries entries;

    AuditEntryRecorder(IntegrationEventContext context, AuditConfig config, AuditEntries entries) {
        this.context = context;
        this.config = config;
        this.entries = entries;
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
        return entries.record(new AuditEntries.NewEntry(UUID.randomUUID().toString().replace("-", ""),
                event.organizationId(), messageId, event.type(), event.occurredAt(), Cursor.now(), event.data().toString()));
    }
}
