package dev.hookfan.audit;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/** One consumed fact of one organization, keyed on the message that carried it. */
@Entity
@Table(name = "audit_entry")
public class AuditEntry extends PanacheEntityBase {

    @Id
    public String id;
    @Column(name = "organization_id")
    public String organizationId;
    @Column(name = "source_message_id")
    public String sourceMessageId;
    @Column(name = "event_type")
    public String eventType;
    @Column(name = "occurred_at")
    public Instant occurredAt;
    @Column(name = "recorded_at")
    public Instant recordedAt;
    public String data;
}
