package dev.hookfan.deliveries;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookfan.api.Problem.FieldError;
import dev.hookfan.api.ValidationException;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/** The body of a bulk recovery: {@code {"since": "<ISO-8601>", "until": "<ISO-8601>"?}}, read and checked. */
record RecoveryWindow(Instant since, Instant until) {

    static RecoveryWindow of(JsonNode body, Duration maxWindow, Instant now) {
        if (body == null || !body.isObject()) {
            throw ValidationException.of("body", "must be a JSON object with since and, optionally, until");
        }
        List<FieldError> errors = new ArrayList<>();
        body.fieldNames().forEachRemaining(name -> {
            if (!name.equals("since") && !name.equals("until")) {
                errors.add(new FieldError(name, "is not a field of a recovery (fields: since, until)"));
            }
        });
        Instant since = instant(body.get("since"), "since", true, errors);
        Instant until = instant(body.get("until"), "until", false, errors);
        if (since != null && since.isBefore(now.minus(maxWindow))) {
            errors.add(new FieldError("since", "must be at most " + maxWindow.toDays() + " days ago"
                    + " (hookfan.recovery.max-window)"));
        }
        if (since != null && until != null && !until.isAfter(since)) {
            errors.add(new FieldError("until", "must be after since"));
        }
        if (!errors.isEmpty()) {
            throw new ValidationException(errors);
        }
        return new RecoveryWindow(since, until == null ? now : until);
    }

    private static Instant instant(JsonNode node, String field, boolean required, List<FieldError> errors) {
        if (node == null || node.isNull()) {
            if (required) {
                errors.add(new FieldError(field, "is required: an ISO-8601 instant such as 2026-12-01T00:00:00Z"));
            }
            return null;
        }
        try {
            return OffsetDateTime.parse(node.asText()).toInstant();
        } catch (DateTimeParseException e) {
            errors.add(new FieldError(field, "must be an ISO-8601 instant with an offset, such as 2026-12-01T00:00:00Z"));
            return null;
        }
    }
}
