package dev.hookfan.webhooks;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A webhook as the API shows it; {@code secret} is present only in the create response; {@code failingSince} is when
 * its current run of failures began (null while it is healthy). {@code rateLimit} is in
 * deliveries per second and {@code timeout} in seconds, null when not set.
 */
@RegisterForReflection
public record WebhookView(String id, String organizationId, String url, List<String> eventTypes, String description,
                          boolean enabled, String disabledReason, Instant failingSince, Integer rateLimit, Double timeout,
                          Map<String, String> headers, Instant createdAt, Instant updatedAt,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String secret) {

    static WebhookView of(Webhook webhook) {
        return withSecret(webhook, null);
    }

    static WebhookView withSecret(Webhook webhook, String secret) {
        return new WebhookView(webhook.id, webhook.organizationId, webhook.url, webhook.eventTypeList(),
                webhook.description, webhook.enabled, webhook.disabledReason, webhook.failingSince, webhook.rateLimit,
                webhook.timeoutMs == null ? null : webhook.timeoutMs / 1000.0, WebhookHeaders.parse(webhook.headers),
                webhook.createdAt, webhook.updatedAt, secret);
    }

    @RegisterForReflection
    public record SecretView(String secret) {
    }
}
