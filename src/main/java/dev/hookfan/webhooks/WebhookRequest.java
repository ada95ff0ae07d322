package dev.hookfan.webhooks;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookfan.api.Problem.FieldError;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The body of a webhook's create and replace, and what a merge patch is applied to: read by Jackson, its constraints
 * checked by Bean Validation, and {@link #problems} for the rules no constraint annotation can say.
 */
@RegisterForReflection
@Schema(name = "WebhookRequest", description = "A webhook's writable fields; unknown fields are refused")
public record WebhookRequest(
        @Schema(required = true, description = "absolute http(s) URL, at most 2048 characters; must resolve to a public address")
        @NotNull(message = "is required")
        String url,
        @Schema(required = true, description = "1 to 100 event types such as organization.member_removed, or [\"*\"]")
        @NotNull(message = "is required")
        @Size(min = 1, max = MAX_EVENT_TYPES, message = "must have 1 to " + MAX_EVENT_TYPES + " entries")
        List<@NotNull(message = "must be a string") @Pattern(regexp = EVENT_TYPE, message = EVENT_TYPE_MESSAGE) String> eventTypes,
        @Schema(description = "at most 500 characters")
        @Size(max = MAX_DESCRIPTION, message = "must be at most " + MAX_DESCRIPTION + " characters")
        String description,
        @Schema(description = "default true")
        Boolean enabled,
        @Schema(description = "deliveries per second at most, 1 to 100000; null for no limit", minimum = "1", maximum = "100000")
        @Min(value = 1, message = RATE_LIMIT_MESSAGE) @Max(value = MAX_RATE_LIMIT, message = RATE_LIMIT_MESSAGE)
        Integer rateLimit,
        @Schema(description = "seconds for a 2xx answer, above 0 and at most hookfan.delivery.timeout; null for that")
        Double timeout,
        @Schema(description = "up to 20 extra request headers; signature, id, timestamp, content, tracing, hookfan-* and"
                + " hop-by-hop headers cannot be set")
        @Size(max = WebhookHeaders.MAX_HEADERS, message = "must be an object of at most " + WebhookHeaders.MAX_HEADERS
                + " header names to string values")
        Map<String, String> headers) {

    static final int MAX_EVENT_TYPES = 100;
    static final int MAX_DESCRIPTION = 500;
    static final int MAX_RATE_LIMIT = 100_000;
    /** "*", or dot-separated parts of lowercase letters, digits and '_', no longer than delivery_event.event_type holds. */
    static final String EVENT_TYPE = "\\*|(?=.{1,255}$)[a-z0-9_]+(\\.[a-z0-9_]+)+";
    static final String EVENT_TYPE_MESSAGE = "must look like 'organization.member_removed' (lowercase letters, digits and"
            + " '_', in dot-separated parts) or be \"*\"";
    static final String RATE_LIMIT_MESSAGE = "must be a whole number of deliveries per second, 1 to " + MAX_RATE_LIMIT
            + ", or null for none";
    static final String BODY = "must be a JSON object";

    /**
     * The rules Bean Validation cannot say: the URL policy (UrlPolicy's own rules), "*" alone, a timeout bound that
     * is configuration (the service's delivery timeout), and each header against WebhookHeaders' rules.
     */
    List<FieldError> problems(Duration maxTimeout) {
        List<FieldError> problems = new ArrayList<>();
        if (url != null) {
            UrlPolicy.problemWith(url).ifPresent(problem -> problems.add(new FieldError("url", problem)));
        }
        if (eventTypes != null && eventTypes.size() > 1 && eventTypes.size() <= MAX_EVENT_TYPES) {
            for (int i = 0; i < eventTypes.size(); i++) {
                if (Webhook.ALL_TYPES.equals(eventTypes.get(i))) {
                    problems.add(new FieldError("eventTypes[" + i + "]", "\"*\" subscribes to every type and must be the only entry"));
                }
            }
        }
        if (timeout != null && (timeout < 0.001 || Duration.ofMillis(Math.round(timeout * 1000)).compareTo(maxTimeout) > 0)) {
            problems.add(new FieldError("timeout", "must be a number of seconds above 0 and at most the service's "
                    + maxTimeout.toMillis() / 1000.0 + " (hookfan.delivery.timeout), or null for that"));
        }
        if (headers != null && headers.size() <= WebhookHeaders.MAX_HEADERS) {
            Set<String> seen = new HashSet<>();
            for (Map.Entry<String, String> header : headers.entrySet()) {
                Optional<String> problem = WebhookHeaders.problemWith(header.getKey(), header.getValue());
                if (problem.isEmpty() && !seen.add(header.getKey().toLowerCase(Locale.ROOT))) {
                    problem = Optional.of("is named twice (header names are case-insensitive)");
                }
                problem.ifPresent(text -> problems.add(new FieldError("headers." + header.getKey(), text)));
            }
        }
        return problems;
    }

    /** The request, once valid, as the webhook's fields: event types once each, absent fields their defaults. */
    WebhookSpec spec() {
        return new WebhookSpec(url, List.copyOf(new LinkedHashSet<>(eventTypes)), description, enabled == null || enabled,
                rateLimit, timeout == null ? null : Duration.ofMillis(Math.round(timeout * 1000)),
                headers == null ? Map.of() : headers);
    }

    /** A JSON merge patch applied to the webhook's current fields: a field the patch names replaces the current one, null included. */
    static ObjectNode merged(WebhookSpec current, ObjectNode patch) {
        ObjectNode merged = JsonNodeFactory.instance.objectNode();
        merged.put("url", current.url());
        current.eventTypes().forEach(merged.putArray("eventTypes")::add);
        merged.put("description", current.description());
        merged.put("enabled", current.enabled());
        merged.put("rateLimit", current.rateLimit());
        merged.put("timeout", current.timeout() == null ? null : current.timeout().toMillis() / 1000.0);
        ObjectNode headers = merged.putObject("headers");
        if (current.headers() != null) {
            current.headers().forEach(headers::put);
        }
        merged.setAll(patch);
        return merged;
    }
}
