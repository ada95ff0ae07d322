package dev.hookfan.deliveries;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/** One try at sending a delivery, as the sender recorded it. */
@Entity
@Table(name = "delivery_attempt")
public class DeliveryAttempt extends PanacheEntityBase {

    @Id
    public Long id;
    @Column(name = "delivery_id")
    public String deliveryId;
    @Column(name = "attempt_number")
    public int attemptNumber;
    @Column(name = "started_at")
    public Instant startedAt;
    @Column(name = "duration_ms")
    public int durationMs;
    @Column(name = "response_status")
    public Integer responseStatus;
    @Column(name = "response_body")
    public String responseBody;
    public String error;
}
