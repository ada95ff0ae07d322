package dev.hookfan.webhooks;

/** Fired after a transaction that changed an organization's webhooks or their secrets has committed. */
public record WebhookChanged(String organizationId, String webhookId) {
}
