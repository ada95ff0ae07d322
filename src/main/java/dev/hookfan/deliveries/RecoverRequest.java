package dev.hookfan.deliveries;

import dev.hookfan.api.Problem.FieldError;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The body of a bulk recovery: read by Jackson, checked by Bean Validation and {@link #problems}. */
@RegisterForReflection
@Schema(name = "RecoverRequest")
public record RecoverRequest(
        @Schema(required = true, implementation = String.class,
                description = "ISO-8601 instant; at most hookfan.recovery.max-window (14 days) ago",
                examples = "2026-12-01T00:00:00Z")
        @NotNull(message = "is required: an ISO-8601 instant such as 2026-12-01T00:00:00Z")
        Instant since,
        @Schema(implementation = String.class, description = "ISO-8601 instant after since; now when absent")
        Instant until) {

    static final String BODY = "must be a JSON object with since and, optionally, until";

    /** The rules no constraint annotation can say: a window bounded by configuration and now, and until after since. */
    List<FieldError> problems(Duration maxWindow, Instant now) {
        List<FieldError> problems = new ArrayList<>();
        if (since != null && since.isBefore(now.minus(maxWindow))) {
            problems.add(new FieldError("since", "must be at most " + maxWindow.toDays() + " days ago"
                    + " (hookfan.recovery.max-window)"));
        }
        if (since != null && until != null && !until.isAfter(since)) {
            problems.add(new FieldError("until", "must be after since"));
        }
        return problems;
    }

    RecoveryWindow window(Instant now) {
        return new RecoveryWindow(since, until == null ? now : until);
    }
}
