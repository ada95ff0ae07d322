package dev.hookfan.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookfan.api.Problem.FieldError;
import dev.hookfan.api.ValidationException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** Reads webhook request bodies into a {@link WebhookSpec}, naming every field that breaks the contract. */
final class WebhookRequests {

    static final Pattern EVENT_TYPE = Pattern.compile("^[a-z0-9_]+(\\.[a-z0-9_]+)+$");
    static final int MAX_EVENT_TYPES = 100;
    static final int MAX_EVENT_TYPE_LENGTH = 255;
    static final int MAX_DESCRIPTION = 500;
    static final int MAX_RATE_LIMIT = 100_000;
    private static final Set<String> WRITABLE = Set.of("url", "eventTypes", "description", "enabled", "rateLimit",
            "timeout", "headers");

    private WebhookRequests() {
    }

    /** POST and PUT: url and eventTypes are required, the rest take their defaults; timeout is at most maxTimeout. */
    static WebhookSpec full(JsonNode body, Duration maxTimeout) {
        List<FieldError> errors = new ArrayList<>();
        requireObject(body);
        rejectUnknown(body, errors);
        String url = url(body.get("url"), errors);
        List<String> eventTypes = eventTypes(body.get("eventTypes"), errors);
        String description = description(body.get("description"), errors);
        boolean enabled = enabled(body.get("enabled"), true, errors);
        Integer rateLimit = rateLimit(body.get("rateLimit"), errors);
        Duration timeout = timeout(body.get("timeout"), maxTimeout, errors);
        Map<String, String> headers = headers(body.get("headers"), errors);
        return valid(errors, new WebhookSpec(url, eventTypes, description, enabled, rateLimit, timeout, headers));
    }

    /** PATCH, as a JSON merge patch (RFC 7396) of the writable fields. */
    static WebhookSpec merge(WebhookSpec current, JsonNode patch, Duration maxTimeout) {
        List<FieldError> errors = new ArrayList<>();
        requireObject(patch);
        rejectUnknown(patch, errors);
        String url = patch.has("url") ? url(patch.get("url"), errors) : current.url();
        List<String> eventTypes = patch.has("eventTypes") ? eventTypes(patch.get("eventTypes"), errors) : current.eventTypes();
        String description = patch.has("description") ? description(patch.get("description"), errors) : current.description();
        boolean enabled = patch.has("enabled") ? enabled(patch.get("enabled"), current.enabled(), errors) : current.enabled();
        Integer rateLimit = patch.has("rateLimit") ? rateLimit(patch.get("rateLimit"), errors) : current.rateLimit();
        Duration timeout = patch.has("timeout") ? timeout(patch.get("timeout"), maxTimeout, errors) : current.timeout();
        Map<String, String> headers = patch.has("headers") ? headers(patch.get("headers"), errors) : current.headers();
        return valid(errors, new WebhookSpec(url, eventTypes, description, enabled, rateLimit, timeout, headers));
    }

    private static Integer rateLimit(JsonNode node, List<FieldError> errors) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isIntegralNumber() || node.asLong() < 1 || node.asLong() > MAX_RATE_LIMIT) {
            errors.add(new FieldError("rateLimit", "must be a whole number of deliveries per second, 1 to " + MAX_RATE_LIMIT
                    + ", or null for none"));
            return null;
        }
        return node.asInt();
    }

    private static Duration timeout(JsonNode node, Duration maxTimeout, List<FieldError> errors) {
        if (node == null || node.isNull()) {
            return null;
        }
        double seconds = node.isNumber() ? node.asDouble() : -1;
        if (!node.isNumber() || seconds < 0.001 || Duration.ofMillis(Math.round(seconds * 1000)).compareTo(maxTimeout) > 0) {
            errors.add(new FieldError("timeout", "must be a number of seconds above 0 and at most the service's "
                    + maxTimeout.toMillis() / 1000.0 + " (hookfan.delivery.timeout), or null for that"));
            return null;
        }
        return Duration.ofMillis(Math.round(seconds * 1000));
    }

    private static Map<String, String> headers(JsonNode node, List<FieldError> errors) {
        if (node == null || node.isNull()) {
            return Map.of();
        }
        if (!node.isObject() || node.size() > WebhookHeaders.MAX_HEADERS) {
            errors.add(new FieldError("headers", "must be an object of at most " + WebhookHeaders.MAX_HEADERS
                    + " header names to string values"));
            return Map.of();
        }
        Map<String, String> headers = new LinkedHashMap<>();
        Set<String> seen = new java.util.HashSet<>();
        node.fields().forEachRemaining(entry -> {
            String value = entry.getValue().isTextual() ? entry.getValue().asText() : null;
            String field = "headers." + entry.getKey();
            WebhookHeaders.problemWith(entry.getKey(), value).ifPresentOrElse(
                    problem -> errors.add(new FieldError(field, problem)),
                    () -> {
                        if (!seen.add(entry.getKey().toLowerCase(java.util.Locale.ROOT))) {
                            errors.add(new FieldError(field, "is named twice (header names are case-insensitive)"));
                        }
                        headers.put(entry.getKey(), value);
                    });
        });
        return headers;
    }

    private static void requireObject(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw ValidationException.of("body", "must be a JSON object");
        }
    }

    private static void rejectUnknown(JsonNode body, List<FieldError> errors) {
        body.fieldNames().forEachRemaining(name -> {
            if (!WRITABLE.contains(name)) {
                errors.add(new FieldError(name, "is not a writable field (writable: url, eventTypes, description, enabled,"
                        + " rateLimit, timeout, headers)"));
            }
        });
    }

    private static String url(JsonNode node, List<FieldError> errors) {
        if (node == null || node.isNull()) {
            errors.add(new FieldError("url", "is required"));
            return null;
        }
        if (!node.isTextual()) {
            errors.add(new FieldError("url", "must be a string"));
            return null;
        }
        UrlPolicy.problemWith(node.asText()).ifPresent(problem -> errors.add(new FieldError("url", problem)));
        return node.asText();
    }

    private static List<String> eventTypes(JsonNode node, List<FieldError> errors) {
        if (node == null || node.isNull()) {
            errors.add(new FieldError("eventTypes", "is required"));
            return List.of();
        }
        if (!node.isArray()) {
            errors.add(new FieldError("eventTypes", "must be an array of event types"));
            return List.of();
        }
        if (node.isEmpty() || node.size() > MAX_EVENT_TYPES) {
            errors.add(new FieldError("eventTypes", "must have 1 to " + MAX_EVENT_TYPES + " entries"));
            return List.of();
        }
        Set<String> types = new LinkedHashSet<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode entry = node.get(i);
            String field = "eventTypes[" + i + "]";
            if (!entry.isTextual()) {
                errors.add(new FieldError(field, "must be a string"));
            } else if (entry.asText().equals(Webhook.ALL_TYPES)) {
                if (node.size() != 1) {
                    errors.add(new FieldError(field, "\"*\" subscribes to every type and must be the only entry"));
                }
                types.add(Webhook.ALL_TYPES);
            } else if (entry.asText().length() > MAX_EVENT_TYPE_LENGTH || !EVENT_TYPE.matcher(entry.asText()).matches()) {
                errors.add(new FieldError(field, "must look like 'organization.member_removed' (lowercase letters, digits and '_', in dot-separated parts) or be \"*\""));
            } else {
                types.add(entry.asText());
            }
        }
        return List.copyOf(types);
    }

    private static String description(JsonNode node, List<FieldError> errors) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            errors.add(new FieldError("description", "must be a string"));
            return null;
        }
        if (node.asText().length() > MAX_DESCRIPTION) {
            errors.add(new FieldError("description", "must be at most " + MAX_DESCRIPTION + " characters"));
        }
        return node.asText();
    }

    private static boolean enabled(JsonNode node, boolean absent, List<FieldError> errors) {
        if (node == null) {
            return absent;
        }
        if (!node.isBoolean()) {
            errors.add(new FieldError("enabled", "must be true or false"));
            return absent;
        }
        return node.asBoolean();
    }

    private static WebhookSpec valid(List<FieldError> errors, WebhookSpec spec) {
        if (!errors.isEmpty()) {
            throw new ValidationException(errors);
        }
        return spec;
    }
}
