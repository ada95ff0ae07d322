package dev.hookfan.deadletters;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookfan.api.Problem.FieldError;
import dev.hookfan.api.ValidationException;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/** {@code {"messageIds": [...]}} or {@code {"all": true}}, either optionally narrowed by {@code "eventType"}. */
@Schema(name = "RedriveRequest")
public record RedriveRequest(
        @Schema(description = "the dead letters to move back, by message id") List<String> messageIds,
        @Schema(description = "true: every dead letter (of eventType, if given)") Boolean all,
        @Schema(description = "only dead letters of this event type") String eventType) {

    static final int MAX_IDS = 10_000;

    /** What the body chooses, or a 400 naming the field. */
    static Predicate<DeadLetter> choice(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw ValidationException.of("body", "must be a JSON object with messageIds or all");
        }
        List<FieldError> errors = new ArrayList<>();
        body.fieldNames().forEachRemaining(name -> {
            if (!Set.of("messageIds", "all", "eventType").contains(name)) {
                errors.add(new FieldError(name, "is not a field of a redrive (fields: messageIds, all, eventType)"));
            }
        });
        JsonNode ids = body.get("messageIds");
        JsonNode all = body.get("all");
        JsonNode type = body.get("eventType");
        Set<String> chosenIds = new HashSet<>();
        if (ids != null && (!ids.isArray() || ids.isEmpty() || ids.size() > MAX_IDS)) {
            errors.add(new FieldError("messageIds", "must be an array of 1 to " + MAX_IDS + " message ids"));
        } else if (ids != null) {
            ids.forEach(id -> chosenIds.add(id.asText()));
        }
        if (all != null && !all.isBoolean()) {
            errors.add(new FieldError("all", "must be true or false"));
        }
        boolean everything = all != null && all.asBoolean();
        if ((ids == null) == !everything) {
            errors.add(new FieldError("messageIds", "give either messageIds or \"all\": true"));
        }
        if (type != null && (!type.isTextual() || type.asText().isBlank())) {
            errors.add(new FieldError("eventType", "must be an event type"));
        }
        if (!errors.isEmpty()) {
            throw new ValidationException(errors);
        }
        String eventType = type == null ? null : type.asText();
        return letter -> (everything || chosenIds.contains(letter.messageId()))
                && (eventType == null || eventType.equals(letter.type()));
    }
}
