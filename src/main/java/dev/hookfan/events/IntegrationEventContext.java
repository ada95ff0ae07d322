package dev.hookfan.events;

import jakarta.enterprise.context.RequestScoped;

import java.util.Optional;

/**
 * The consumed message behind the current request scope. Its id stays the same across redeliveries,
 * so handlers derive idempotency keys from it; outside a consumer (an HTTP request, a job) it is empty.
 */
@RequestScoped
public class IntegrationEventContext {

    private String messageId;
    private String traceparent;

    /** Called by the messaging adapter at the start of each message, and by nobody else. */
    public void enter(String messageId, String traceparent) {
        this.messageId = messageId;
        this.traceparent = traceparent;
    }

    public Optional<String> messageId() {
        return Optional.ofNullable(messageId);
    }

    /** The W3C trace context the publisher sent with the message, if any. */
    public Optional<String> traceparent() {
        return Optional.ofNullable(traceparent);
    }
}
