package dev.hookfan.deadletters;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookfan.api.Problem.FieldError;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * {@code {"messageIds": [...]}} or {@code {"all": true}}, either optionally narrowed by {@code "eventType"}: read by
 * Jackson, checked by Bean Validation and {@link #problems}.
 */
@RegisterForReflection
@Schema(name = "RedriveRequest")
public record RedriveRequest(
        @Schema(description = "the dead letters to move back, by message id")
        @Size(min = 1, max = RedriveRequest.MAX_IDS, message = "must be an array of 1 to " + RedriveRequest.MAX_IDS + " message ids")
        List<String> messageIds,
        @Schema(description = "true: every dead letter (of eventType, if given)") Boolean all,
        @Schema(description = "only dead letters of this event type")
        @Pattern(regexp = "(?s).*\\S.*", message = "must be an event type")
        String eventType) {

    static final int MAX_IDS = 10_000;
    static final String BODY = "must be a JSON object with messageIds or all";

    /**
     * What no constraint annotation says: messageIds or "all": true, not both, not neither; and a field given as null
     * is refused, not taken as absent (a null eventType must not widen a redrive to every type).
     */
    List<FieldError> problems(JsonNode body) {
        List<FieldError> problems = new ArrayList<>();
        for (String field : List.of("messageIds", "all", "eventType")) {
            if (body.has(field) && body.get(field).isNull()) {
                problems.add(new FieldError(field, "must not be null"));
            }
        }
        boolean everything = Boolean.TRUE.equals(all);
        if (problems.isEmpty() && (messageIds == null) == !everything) {
            problems.add(new FieldError("messageIds", "give either messageIds or \"all\": true"));
        }
        return problems;
    }

    /** What the request chooses. */
    Predicate<DeadLetter> choice() {
        boolean everything = Boolean.TRUE.equals(all);
        Set<String> chosenIds = messageIds == null ? Set.of() : new HashSet<>(messageIds);
        return letter -> (everything || chosenIds.contains(letter.messageId()))
                && (eventType == null || eventType.equals(letter.type()));
    }
}
