package dev.hookfan.sending;

import io.smallrye.mutiny.Uni;

/** Publishes an operational event to the integration-events exchange. Implemented by the messaging adapter. */
public interface OperationalEventPublisher {

    /** Completes once the broker confirmed it; the routing key is the type. */
    Uni<Void> publish(String messageId, String type, byte[] body);
}
