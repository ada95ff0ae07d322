package dev.hookfan.webhooks;

import io.vertx.core.json.JsonObject;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A webhook's own request headers: a bounded map of names to values, stored as a JSON object. The signature, id,
 * timestamp, content type, Hookfan's own and hop-by-hop headers cannot be set, so a subscriber can always trust them.
 */
public final class WebhookHeaders {

    static final int MAX_HEADERS = 20;
    static final int MAX_NAME = 64;
    static final int MAX_VALUE = 1024;
    /** RFC 9110 token characters. */
    private static final Pattern NAME = Pattern.compile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$");
    private static final Set<String> RESERVED = Set.of("webhook-id", "webhook-timestamp", "webhook-signature",
            "content-type", "content-length", "content-encoding", "host", "user-agent", "traceparent", "tracestate",
            "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection", "te", "trailer",
            "transfer-encoding", "upgrade", "expect");

    private WebhookHeaders() {
    }

    /** What is wrong with this header, if anything. */
    static Optional<String> problemWith(String name, String value) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (name.isEmpty() || name.length() > MAX_NAME || !NAME.matcher(name).matches()) {
            return Optional.of("must be a header name of 1 to " + MAX_NAME + " token characters");
        }
        if (RESERVED.contains(lower) || lower.startsWith("hookfan-")) {
            return Optional.of("is set by Hookfan itself (signature, id, timestamp, content, tracing and hop-by-hop"
                    + " headers cannot be set)");
        }
        if (value == null) {
            return Optional.of("must be a string");
        }
        if (value.length() > MAX_VALUE || value.chars().anyMatch(c -> (c < 0x20 && c != '\t') || c == 0x7f)) {
            return Optional.of("must be at most " + MAX_VALUE + " characters with no control characters");
        }
        return Optional.empty();
    }

    static String format(Map<String, String> headers) {
        return headers == null || headers.isEmpty() ? null : new JsonObject(new LinkedHashMap<>(headers)).encode();
    }

    static Map<String, String> parse(String stored) {
        if (stored == null || stored.isEmpty()) {
            return Map.of();
        }
        Map<String, String> headers = new LinkedHashMap<>();
        new JsonObject(stored).forEach(entry -> headers.put(entry.getKey(), String.valueOf(entry.getValue())));
        return Collections.unmodifiableMap(headers);
    }
}
