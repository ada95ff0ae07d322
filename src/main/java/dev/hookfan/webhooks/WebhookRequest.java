package dev.hookfan.webhooks;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;
import java.util.Map;

/**
 * The body of a webhook's create, replace and merge patch, for the OpenAPI document: the resource reads it as JSON
 * itself ({@link WebhookRequests}), so that every broken field is named in one answer.
 */
@Schema(name = "WebhookRequest", description = "A webhook's writable fields; unknown fields are refused")
public record WebhookRequest(
        @Schema(required = true, description = "absolute http(s) URL, at most 2048 characters; must resolve to a public address")
        String url,
        @Schema(required = true, description = "1 to 100 event types such as organization.member_removed, or [\"*\"]")
        List<String> eventTypes,
        @Schema(description = "at most 500 characters")
        String description,
        @Schema(description = "default true")
        Boolean enabled,
        @Schema(description = "deliveries per second at most, 1 to 100000; null for no limit", minimum = "1", maximum = "100000")
        Integer rateLimit,
        @Schema(description = "seconds for a 2xx answer, above 0 and at most hookfan.delivery.timeout; null for that")
        Double timeout,
        @Schema(description = "up to 20 extra request headers; signature, id, timestamp, content, tracing, hookfan-* and"
                + " hop-by-hop headers cannot be set")
        Map<String, String> headers) {
}
