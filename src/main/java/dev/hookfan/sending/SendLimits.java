package dev.hookfan.sending;

/** Sends at once overall, per organization and per webhook; deliveries waiting in memory overall and per webhook. */
record SendLimits(int maxInFlight, int maxPerOrganization, int maxPerWebhook, int maxQueued, int maxQueuedPerWebhook) {
}
