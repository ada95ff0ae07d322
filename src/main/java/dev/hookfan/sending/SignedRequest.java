package dev.hookfan.sending;

import dev.hookfan.webhooks.WebhookEndpoint;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The exact request a subscriber gets for one attempt: the delivery's body, and the webhook's own headers followed by
 * Standard Webhooks' id, timestamp and signature (one per secret that may sign at that instant, newest first).
 * A pure function of its inputs; the webhook's headers can never name one of ours (the API refuses them).
 */
record SignedRequest(Map<String, String> headers, byte[] body) {

    /** Null when the webhook has no secret that may sign at this instant. */
    static SignedRequest of(ClaimedDelivery delivery, WebhookEndpoint endpoint, Instant at, UnaryOperator<String> openSecret,
                            String userAgent) {
        List<String> secrets = endpoint.secretsAt(at).stream().map(openSecret).toList();
        if (secrets.isEmpty()) {
            return null;
        }
        String body = delivery.payload();
        long timestamp = at.getEpochSecond();
        Map<String, String> headers = new LinkedHashMap<>(endpoint.headers());
        headers.put("content-type", "application/json");
        headers.put("user-agent", userAgent);
        headers.put("webhook-id", delivery.id());
        headers.put("webhook-timestamp", Long.toString(timestamp));
        headers.put("webhook-signature", Signatures.header(secrets, delivery.id(), timestamp, body));
        headers.put("hookfan-event-type", delivery.eventType());
        if (delivery.messageId() != null) {
            headers.put("hookfan-message-id", delivery.messageId());
        }
        if (delivery.traceparent() != null) {
            headers.put("traceparent", delivery.traceparent());
        }
        return new SignedRequest(headers, body.getBytes(StandardCharsets.UTF_8));
    }
}
