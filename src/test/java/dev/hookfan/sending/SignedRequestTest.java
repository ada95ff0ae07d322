package dev.hookfan.sending;

import com.standardwebhooks.Webhook;
import dev.hookfan.webhooks.WebhookEndpoint;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class SignedRequestTest {

    static final String CURRENT = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    static final String ROTATED = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";
    static final Instant AT = Instant.parse("2026-12-06T10:00:00Z");
    static final String ID = "0123456789abcdef0123456789abcdef";
    static final String EVENT_BODY = "\"type\":\"a.b\",\"data\":{}}";
    /** The delivery's own id first, then its event's stored body. */
    static final String BODY = "{\"delivery\":\"" + ID + "\",\"type\":\"a.b\",\"data\":{}}";

    static ClaimedDelivery delivery(String messageId, String traceparent) {
        return new ClaimedDelivery(ID, "w1", "org", messageId, "a.b", EVENT_BODY, traceparent, 1,
                OffsetDateTime.parse("2026-12-06T10:01:00Z"));
    }

    static WebhookEndpoint endpoint(List<WebhookEndpoint.SealedSecret> secrets, Map<String, String> headers) {
        return new WebhookEndpoint("https://example.com/hook", secrets, 0, null, headers);
    }

    @Test
    void should_put_the_webhooks_headers_first_then_the_signed_ones_over_the_delivery_id_and_the_stored_event_body() {
        Map<String, String> own = new LinkedHashMap<>();
        own.put("X-Tenant", "acme");
        // The reference library checks the timestamp against its own clock: this one is signed now.
        Instant now = Instant.now();
        SignedRequest request = SignedRequest.of(delivery("m1", "00-abc-def-01"),
                endpoint(List.of(new WebhookEndpoint.SealedSecret(CURRENT, null)), own), now, secret -> secret, "Hookfan/test");

        assertEquals(List.of("X-Tenant", "content-type", "user-agent", "webhook-id", "webhook-timestamp", "webhook-signature",
                "hookfan-event-type", "hookfan-message-id", "traceparent"), List.copyOf(request.headers().keySet()));
        assertEquals(Long.toString(now.getEpochSecond()), request.headers().get("webhook-timestamp"));
        assertEquals(BODY, new String(request.body(), StandardCharsets.UTF_8));
        Map<String, List<String>> headers = request.headers().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> List.of(e.getValue())));
        assertDoesNotThrow(() -> new Webhook(CURRENT).verify(BODY, headers));
    }

    @Test
    void should_sign_with_every_secret_that_may_sign_at_that_instant_newest_first() {
        SignedRequest request = SignedRequest.of(delivery(null, null), endpoint(List.of(
                new WebhookEndpoint.SealedSecret(CURRENT, null),
                new WebhookEndpoint.SealedSecret(ROTATED, AT.plus(Duration.ofHours(1))),
                new WebhookEndpoint.SealedSecret("whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", AT)), Map.of()), AT, s -> s, "ua");

        String[] signatures = request.headers().get("webhook-signature").split(" ");
        assertEquals(2, signatures.length);
        assertEquals(Signatures.sign(CURRENT, delivery(null, null).id(), AT.getEpochSecond(), BODY), signatures[0]);
        assertEquals(Signatures.sign(ROTATED, delivery(null, null).id(), AT.getEpochSecond(), BODY), signatures[1]);
        assertNull(request.headers().get("hookfan-message-id"));
        assertNull(request.headers().get("traceparent"));
    }

    @Test
    void should_open_each_sealed_secret_and_make_no_request_without_one() {
        SignedRequest request = SignedRequest.of(delivery(null, null),
                endpoint(List.of(new WebhookEndpoint.SealedSecret("sealed", null)), Map.of()), AT,
                sealed -> sealed.equals("sealed") ? CURRENT : null, "ua");
        assertEquals(Signatures.sign(CURRENT, delivery(null, null).id(), AT.getEpochSecond(), BODY),
                request.headers().get("webhook-signature"));
        assertNull(SignedRequest.of(delivery(null, null), endpoint(List.of(new WebhookEndpoint.SealedSecret(CURRENT, AT)),
                Map.of()), AT, s -> s, "ua"));
    }
}
