package dev.hookfan.deliveries;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/** One (message, webhook) pair: the exact payload to send and where its sending stands. */
@Entity
@Table(name = "webhook_delivery")
public class WebhookDelivery extends PanacheEntityBase {

    @Id
    public String id;
    @Column(name = "webhook_id")
    public String webhookId;
    @Column(name = "organization_id")
    public String organizationId;
    @Column(name = "message_id")
    public String messageId;
    @Column(name = "event_type")
    public String eventType;
    public String payload;
    @Enumerated(EnumType.STRING)
    public DeliveryStatus status;
    public int attempts;
    @Column(name = "next_attempt_at")
    public Instant nextAttemptAt;
    @Column(name = "lease_until")
    public Instant leaseUntil;
    public String traceparent;
    @Column(name = "last_error")
    public String lastError;
    @Column(name = "created_at")
    public Instant createdAt;
    @Column(name = "delivered_at")
    public Instant deliveredAt;
}
