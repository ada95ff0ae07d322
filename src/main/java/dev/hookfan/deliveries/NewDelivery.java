package dev.hookfan.deliveries;

/** A delivery row about to be written: its derived id, the webhook it goes to, the exact bytes to send, its event. */
record NewDelivery(String id, String webhookId, String payload, DeliverySource source) {
}
