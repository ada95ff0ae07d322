package dev.hookfan.webhooks;

import java.util.List;

/** The fields a person sets on a webhook, already validated. */
public record WebhookSpec(String url, List<String> eventTypes, String description, boolean enabled) {
}
