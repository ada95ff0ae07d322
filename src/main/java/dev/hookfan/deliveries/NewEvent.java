package dev.hookfan.deliveries;

import java.util.function.Supplier;

/**
 * An event about to be stored once for all of its deliveries. Its body is rendered at most once, and only when one of
 * its deliveries turns out to be missing: a replay never renders it.
 */
final class NewEvent {

    final String id;
    final String organizationId;
    final String messageId;
    final String eventType;
    final String traceparent;
    private Supplier<String> render;
    private String body;

    NewEvent(String id, String organizationId, String messageId, String eventType, String traceparent, Supplier<String> render) {
        this.id = id;
        this.organizationId = organizationId;
        this.messageId = messageId;
        this.eventType = eventType;
        this.traceparent = traceparent;
        this.render = render;
    }

    /** Called on the writer's context only: one batch writes an event at a time. */
    String body() {
        if (body == null) {
            body = render.get();
            render = null;
        }
        return body;
    }
}
