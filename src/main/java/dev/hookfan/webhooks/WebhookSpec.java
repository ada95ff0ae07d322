package dev.hookfan.webhooks;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The fields a person sets on a webhook, already validated; rateLimit and timeout are null when not set. */
public record WebhookSpec(String url, List<String> eventTypes, String description, boolean enabled, Integer rateLimit,
                          Duration timeout, Map<String, String> headers) {
}
