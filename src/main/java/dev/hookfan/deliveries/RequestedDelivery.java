package dev.hookfan.deliveries;

/** A delivery the sender is asked to send, with the webhook and organization it is queued under. */
public record RequestedDelivery(String id, String webhookId, String organizationId) {
}
