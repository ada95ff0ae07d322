package dev.hookfan.events;

import java.util.List;
import java.util.stream.Collectors;

/** One or more handlers failed for a message; the whole message is retried. */
public class HandlersFailedException extends RuntimeException {

    private final List<HandlerFailure> failures;

    public HandlersFailedException(String eventType, String messageId, List<HandlerFailure> failures) {
        super(failures.size() + " handler(s) failed for event " + eventType + " with message id " + messageId + ": "
                + failures.stream().map(HandlerFailure::describe).collect(Collectors.joining("; ")));
        this.failures = List.copyOf(failures);
        failures.forEach(failure -> addSuppressed(failure.cause()));
    }

    public List<HandlerFailure> failures() {
        return failures;
    }

    public record HandlerFailure(String handler, Throwable cause) {
        String describe() {
            return handler + ": " + cause.getClass().getSimpleName() + ": " + cause.getMessage();
        }
    }
}
