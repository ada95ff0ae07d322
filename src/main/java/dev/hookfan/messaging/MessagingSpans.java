package dev.hookfan.messaging;

import dev.hookfan.tracing.Tracing;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;

/** The spans of RabbitMQ work ("process <queue>", "publish <queue>"), named and tagged as OpenTelemetry's messaging conventions say. */
final class MessagingSpans {

    private MessagingSpans() {
    }

    static SpanBuilder process(Tracing tracing, String queue, Context parent) {
        return of(tracing, "process", SpanKind.CONSUMER, queue, parent);
    }

    static SpanBuilder publish(Tracing tracing, String queue, Context parent) {
        return of(tracing, "publish", SpanKind.PRODUCER, queue, parent);
    }

    private static SpanBuilder of(Tracing tracing, String operation, SpanKind kind, String queue, Context parent) {
        return tracing.span(operation + " " + queue, kind, parent)
                .setAttribute("messaging.system", "rabbitmq")
                .setAttribute("messaging.operation.type", operation)
                .setAttribute("messaging.destination.name", queue);
    }
}
