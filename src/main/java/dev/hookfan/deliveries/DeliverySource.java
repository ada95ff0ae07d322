package dev.hookfan.deliveries;

/** What every delivery of one event shares: where it came from. */
record DeliverySource(String organizationId, String eventType, String messageId, String traceparent) {
}
