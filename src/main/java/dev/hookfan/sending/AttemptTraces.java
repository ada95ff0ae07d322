package dev.hookfan.sending;

import dev.hookfan.tracing.Tracing;
import dev.hookfan.webhooks.UrlPolicy;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.inject.Singleton;

import java.net.InetAddress;
import java.net.URI;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * An attempt's spans: "deliver" continues the trace its event was consumed in (stored with the event), and "POST" is
 * the exchange with the subscriber, whose traceparent names it. With tracing off, each step runs as it is.
 */
@Singleton
class AttemptTraces {

    private final Tracing tracing;
    private final Vertx vertx;

    AttemptTraces(Tracing tracing, Vertx vertx) {
        this.tracing = tracing;
        this.vertx = vertx;
    }

    /** Traced, each attempt runs on a Vert.x context of its own: the trace it continues is current there alone. */
    void start(Runnable attempt) {
        if (!tracing.on()) {
            attempt.run();
            return;
        }
        VertxContext.createNewDuplicatedContext(vertx.getDelegate().getOrCreateContext()).runOnContext(ignored -> attempt.run());
    }

    /** The claimed attempt in its span, current on the attempt's context until it is recorded (the record's statements are its children). */
    Uni<Void> deliver(ClaimedDelivery claimed, Function<Context, Uni<Void>> attempt) {
        if (!tracing.on()) {
            return attempt.apply(Context.root());
        }
        Span span = tracing.span("deliver", SpanKind.INTERNAL, tracing.fromTraceparent(claimed.traceparent()))
                .setAttribute("hookfan.delivery.id", claimed.id())
                .setAttribute("hookfan.webhook.id", claimed.webhookId())
                .setAttribute("hookfan.attempt", claimed.attemptNumber())
                .startSpan();
        Context trace = Context.root().with(span);
        Scope current = trace.makeCurrent();
        return attempt.apply(trace)
                .onFailure().invoke(failure -> Tracing.failed(span, failure))
                .eventually(() -> {
                    current.close();
                    span.end();
                });
    }

    /** The POST in a client span; the headers get that span's trace context before they are sent. */
    Uni<SubscriberClient.Answer> post(Context trace, URI url, InetAddress address, BiConsumer<String, String> header,
                                      Supplier<Uni<SubscriberClient.Answer>> exchange) {
        if (!tracing.on()) {
            return exchange.get();
        }
        return tracing.within(tracing.span("POST", SpanKind.CLIENT, trace)
                        .setAttribute("http.request.method", "POST")
                        .setAttribute("server.address", url.getHost())
                        .setAttribute("server.port", (long) UrlPolicy.port(url))
                        // Without the query, which may hold a subscriber's token.
                        .setAttribute("url.full", url.getScheme() + "://" + url.getRawAuthority() + url.getRawPath())
                        .setAttribute("network.peer.address", address.getHostAddress()),
                span -> {
                    tracing.inject(trace.with(span), header);
                    return exchange.get().invoke(answer -> answered(span, answer));
                });
    }

    private static void answered(Span span, SubscriberClient.Answer answer) {
        span.setAttribute("http.response.status_code", (long) answer.status());
        if (answer.status() >= 400) {
            span.setStatus(StatusCode.ERROR, "HTTP " + answer.status());
        }
    }
}
