package dev.hookfan.tracing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Hookfan's own spans, through the OpenTelemetry API only: with the SDK off (the default) every call is a no-op on
 * a no-op tracer and nothing is recorded. Parents are passed explicitly wherever work crosses a queue or a batch, since
 * the current context follows a Vert.x context and not the work.
 */
@Singleton
public class Tracing {

    private static final TextMapGetter<Map<String, ?>> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, ?> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, ?> carrier, String key) {
            Object value = carrier == null ? null : carrier.get(key);
            return value == null ? null : value.toString();
        }
    };

    private final Tracer tracer;
    private final TextMapPropagator propagator;
    private final boolean on;

    Tracing(OpenTelemetry openTelemetry, @ConfigProperty(name = "quarkus.otel.sdk.disabled") boolean sdkDisabled) {
        this.tracer = openTelemetry.getTracer("dev.hookfan");
        this.propagator = openTelemetry.getPropagators().getTextMapPropagator();
        this.on = !sdkDisabled;
    }

    /** Whether spans are recorded at all (quarkus.otel.sdk.disabled=false); callers skip work that only tracing needs. */
    public boolean on() {
        return on;
    }

    /** The trace context a message's headers carry (W3C traceparent and tracestate by default), or the root. */
    public Context extract(Map<String, ?> headers) {
        return propagator.extract(Context.root(), headers, HEADERS);
    }

    /** The trace context a stored W3C traceparent names, or the root. */
    public Context fromTraceparent(String traceparent) {
        return traceparent == null ? Context.root() : extract(Map.of("traceparent", traceparent));
    }

    /** Writes the context's trace headers (traceparent, ...) with the given setter. */
    public void inject(Context context, BiConsumer<String, String> header) {
        propagator.inject(context, header, (setter, key, value) -> setter.accept(key, value));
    }

    public SpanBuilder span(String name, SpanKind kind, Context parent) {
        return tracer.spanBuilder(name).setSpanKind(kind).setParent(parent);
    }

    /**
     * Runs the work in a span of its own, current while the work is subscribed to (so the statements it sends at
     * once are the span's children); the span ends when the work does, failed if it failed.
     */
    public <T> Uni<T> within(SpanBuilder builder, Function<Span, Uni<T>> work) {
        return Uni.createFrom().emitter(emitter -> {
            Span span = builder.startSpan();
            Cancellable running;
            try (Scope ignored = span.makeCurrent()) {
                running = Uni.createFrom().deferred(() -> work.apply(span)).subscribe().with(
                        item -> {
                            span.end();
                            emitter.complete(item);
                        },
                        failure -> {
                            failed(span, failure);
                            span.end();
                            emitter.fail(failure);
                        });
            }
            emitter.onTermination(running::cancel);
        });
    }

    /** Marks the span failed with the failure's class and message. */
    public static void failed(Span span, Throwable failure) {
        span.setStatus(StatusCode.ERROR, failure.getClass().getSimpleName() + ": " + failure.getMessage());
    }

    /** The W3C traceparent of a recorded span, or null when nothing is traced. */
    public static String traceparent(Span span) {
        SpanContext context = span.getSpanContext();
        if (!context.isValid()) {
            return null;
        }
        return "00-" + context.getTraceId() + "-" + context.getSpanId() + "-" + context.getTraceFlags().asHex();
    }
}
