package dev.hookfan.webhooks;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/** A signing secret; the current one has no expiry, a rotated one signs until {@code expiresAt}. */
@Entity
@Table(name = "webhook_secret")
public class WebhookSecret extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;
    @Column(name = "webhook_id")
    public String webhookId;
    public String secret;
    @Column(name = "created_at")
    public Instant createdAt;
    @Column(name = "expires_at")
    public Instant expiresAt;

    @Override
    public String toString() {
        // Never let a secret reach a log line through toString.
        return "WebhookSecret[webhookId=" + webhookId + ", expiresAt=" + expiresAt + "]";
    }
}
