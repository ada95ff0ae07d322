package dev.hookfan.webhooks;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.time.Instant;
import java.util.List;

/** A webhook as the API shows it; {@code secret} is present only in the create response. */
@RegisterForReflection
public record WebhookView(String id, String organizationId, String url, List<String> eventTypes, String description,
                          boolean enabled, String disabledReason, Instant createdAt, Instant updatedAt,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String secret) {

    static WebhookView of(Webhook webhook) {
        return withSecret(webhook, null);
    }

    static WebhookView withSecret(Webhook webhook, String secret) {
        return new WebhookView(webhook.id, webhook.organizationId, webhook.url, webhook.eventTypeList(),
                webhook.description, webhook.enabled, webhook.disabledReason, webhook.createdAt, webhook.updatedAt, secret);
    }

    @RegisterForReflection
    public record SecretView(String secret) {
    }
}
