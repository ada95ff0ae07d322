package dev.hookfan.deliveries;

/** A delivery row about to be written: its derived id, the webhook it goes to and the exact bytes to send. */
record NewDelivery(String id, String webhookId, String payload) {
}
