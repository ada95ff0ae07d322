package dev.hookfan.events;

import dev.hookfan.events.HandlersFailedException.HandlerFailure;
import dev.hookfan.metrics.MetricsConfig;
import dev.hookfan.metrics.TaggedCounters;
import dev.hookfan.tracing.Tracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Runs every handler that takes an event, all at once, each the same way; one failure does not stop the others, and
 * the failures are collected. Handlers write through the reactive pool, so none waits on a shared session.
 */
@Singleton
public class IntegrationEventDispatcher {

    private static final Logger LOG = Logger.getLogger(IntegrationEventDispatcher.class);

    private final List<IntegrationEventHandler> handlers;
    private final IntegrationEventContext context;
    private final MeterRegistry metrics;
    private final TaggedCounters unhandledByType;
    private final Tracing tracing;

    IntegrationEventDispatcher(Instance<IntegrationEventHandler> handlers, IntegrationEventContext context,
                               MeterRegistry metrics, MetricsConfig metricsConfig, Tracing tracing) {
        this.tracing = tracing;
        this.handlers = handlers.stream().toList();
        this.context = context;
        this.metrics = metrics;
        // Every event of a type no handler takes lands here, as often as the exchange routes them.
        this.unhandledByType = new TaggedCounters(metrics, "hookfan.events.unhandled", "type", metricsConfig.maxEventTypes());
    }

    /** Completes with the number of handlers that ran, or fails with {@link HandlersFailedException}. */
    public Uni<Integer> dispatch(IntegrationEvent event) {
        List<IntegrationEventHandler> takers = handlers.stream().filter(handler -> handler.takes(event.type())).toList();
        if (takers.isEmpty()) {
            unhandledByType.increment(event.type());
            return Uni.createFrom().item(0);
        }
        List<HandlerFailure> failures = new CopyOnWriteArrayList<>();
        Context message = tracing.on() ? Context.current() : null;
        // All at once: an event stays in hand, holding back the next, until its slowest handler is done, not their sum.
        List<Uni<Boolean>> running = takers.stream().map(handler -> run(handler, event, failures, message)).toList();
        return Uni.combine().all().unis(running).discardItems()
                .onItem().transformToUni(ignored -> failures.isEmpty()
                        ? Uni.createFrom().item(takers.size())
                        : Uni.createFrom().failure(new HandlersFailedException(event.type(),
                                context.messageId().orElse("(none)"), failures)));
    }

    private Uni<Boolean> run(IntegrationEventHandler handler, IntegrationEvent event, List<HandlerFailure> failures,
                             Context message) {
        Uni<Void> handled = tracing.on()
                ? tracing.within(tracing.span("handle " + handler.name(), SpanKind.INTERNAL, message)
                        .setAttribute("hookfan.handler", handler.name()), span -> handler.handle(event))
                : Uni.createFrom().deferred(() -> handler.handle(event));
        return handled
                .replaceWith(Boolean.TRUE)
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("Handler %s failed for event %s (message %s): %s", handler.name(), event.type(),
                            context.messageId().orElse("(none)"), failure.toString());
                    metrics.counter("hookfan.handler.failures", "handler", handler.name()).increment();
                    failures.add(new HandlerFailure(handler.name(), failure));
                    return Boolean.FALSE;
                });
    }
}
