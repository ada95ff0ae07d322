package dev.hookfan.events;

import io.smallrye.mutiny.Uni;

/**
 * One module's reaction to integration events. A failure in any handler retries the whole message,
 * so every implementation must tolerate having already run for the same message id.
 */
public interface IntegrationEventHandler {

    /** Whether this handler takes events of the given type. */
    boolean takes(String eventType);

    Uni<Void> handle(IntegrationEvent event);

    /** Name used in logs, metrics and the DLQ's error header. */
    default String name() {
        String name = getClass().getSimpleName();
        int generated = name.indexOf('_');
        return generated > 0 ? name.substring(0, generated) : name;
    }
}
