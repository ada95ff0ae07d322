package dev.hookfan.webhooks;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import org.hibernate.annotations.DynamicUpdate;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * An organization's subscription of one URL to event types. Updates write only the columns they change and fail on a
 * version another writer moved on (the sender disabling it), so an API update never undoes what it did not read.
 */
@Entity
@Table(name = "webhook")
@DynamicUpdate
public class Webhook extends PanacheEntityBase {

    public static final String ALL_TYPES = "*";

    @Id
    public String id;
    @Column(name = "organization_id")
    public String organizationId;
    public String url;
    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(name = "event_types", columnDefinition = "text[]")
    public String[] eventTypes;
    public String description;
    public boolean enabled;
    @Column(name = "disabled_reason")
    public String disabledReason;
    @Column(name = "failing_since")
    public Instant failingSince;
    /** Deliveries per second at most; null: no limit. */
    @Column(name = "rate_limit")
    public Integer rateLimit;
    @Column(name = "timeout_ms")
    public Integer timeoutMs;
    /** Extra request headers, as a JSON object (see {@link WebhookHeaders}). */
    public String headers;
    @Column(name = "created_at")
    public Instant createdAt;
    @Column(name = "updated_at")
    public Instant updatedAt;
    @Version
    public long version;

    public List<String> eventTypeList() {
        return Arrays.asList(eventTypes);
    }

    /** The fields a person set, as a merge patch starts from them. */
    WebhookSpec spec() {
        return new WebhookSpec(url, eventTypeList(), description, enabled, rateLimit,
                timeoutMs == null ? null : java.time.Duration.ofMillis(timeoutMs), WebhookHeaders.parse(headers));
    }

    void apply(WebhookSpec spec, Instant now) {
        url = spec.url();
        eventTypes = spec.eventTypes().toArray(String[]::new);
        description = spec.description();
        rateLimit = spec.rateLimit();
        timeoutMs = spec.timeout() == null ? null : (int) spec.timeout().toMillis();
        headers = WebhookHeaders.format(spec.headers());
        if (spec.enabled() && !enabled) {
            // Re-enabled by a person: forget why the service had turned it off.
            disabledReason = null;
            failingSince = null;
        }
        enabled = spec.enabled();
        updatedAt = now;
    }
}
