package dev.hookfan.deliveries;

/** A delivery row about to be written: its derived id, the webhook it goes to, and the event it sends (stored once). */
record NewDelivery(String id, String webhookId, NewEvent event) {
}
