package dev.hookfan.deliveries;

import dev.hookfan.api.Cursor;
import dev.hookfan.events.IntegrationEvent;
import dev.hookfan.events.IntegrationEventContext;
import dev.hookfan.events.IntegrationEventHandler;
import dev.hookfan.webhooks.Webhook;
import dev.hookfan.webhooks.Subscriptions;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Fans an event out to the organization's subscribed webhooks, once per (message, webhook) however often the
 * message comes back: ids derived from the message id, one lookup of the ids already written, only the
 * missing rows inserted, and the sender asked to send only after the commit.
 */
@ApplicationScoped
public class WebhookEventDispatcher implements IntegrationEventHandler {

    private final Subscriptions subscriptions;
    private final DeliveryRepository deliveries;
    private final DeliveryRequests requests;
    private final DeliveryPayloads payloads;
    private final IntegrationEventContext context;
    private final DeliveryConfig config;
    private final MeterRegistry metrics;

    WebhookEventDispatcher(Subscriptions subscriptions, DeliveryRepository deliveries, DeliveryRequests requests,
                           DeliveryPayloads payloads, IntegrationEventContext context, DeliveryConfig config,
                           MeterRegistry metrics) {
        this.subscriptions = subscriptions;
        this.deliveries = deliveries;
        this.requests = requests;
        this.payloads = payloads;
        this.context = context;
        this.config = config;
        this.metrics = metrics;
    }

    @Override
    public boolean takes(String eventType) {
        return true;
    }

    @Override
    public Uni<Void> handle(IntegrationEvent event) {
        DeliverySource source = new DeliverySource(event.organizationId(), event.type(),
                context.messageId().orElse(null), context.traceparent().orElse(null));
        return Panache.withSession(() -> subscriptions.webhookIds(event.organizationId(), event.type())
                        .chain(subscribed -> missing(subscribed, event, source)))
                // The session, and its connection, is closed before the insert takes one of its own.
                .chain(missing -> insert(missing, source))
                .chain(this::requestSends);
    }

    /** Queues one event for one webhook alone (the test endpoint); there is no message, so the id is random. */
    public Uni<String> dispatchTo(Webhook webhook, IntegrationEvent event) {
        DeliverySource source = new DeliverySource(event.organizationId(), event.type(), null, null);
        return Panache.withSession(() -> missing(List.of(webhook.id), event, source))
                .chain(missing -> insert(missing, source))
                .call(this::requestSends)
                .map(ids -> ids.get(0));
    }

    /** The deliveries of this event not written yet; the lookup of the written ones is one query. */
    private Uni<Missing> missing(List<String> subscribed, IntegrationEvent event, DeliverySource source) {
        if (subscribed.isEmpty()) {
            return Uni.createFrom().item(new Missing(List.of(), 0));
        }
        List<NewDelivery> candidates = subscribed.stream()
                .map(webhookId -> candidate(webhookId, event, source.messageId()))
                .toList();
        return deliveries.existingIds(candidates.stream().map(NewDelivery::id).toList())
                .map(existing -> {
                    Set<String> written = new HashSet<>(existing);
                    return new Missing(candidates.stream().filter(candidate -> !written.contains(candidate.id())).toList(),
                            candidates.size());
                });
    }

    private Uni<List<String>> insert(Missing missing, DeliverySource source) {
        return (missing.deliveries().isEmpty()
                // A replay costs the one read above (subscriptions are cached): no transaction, no write, no publish.
                ? Uni.createFrom().item(List.<String>of())
                // One statement: its own transaction, committed before any send is requested.
                : deliveries.insertIfAbsent(missing.deliveries(), source, Cursor.now(), config.sweepGrace()))
                .invoke(inserted -> count(missing.candidates(), inserted.size()));
    }

    private record Missing(List<NewDelivery> deliveries, int candidates) {
    }

    private NewDelivery candidate(String webhookId, IntegrationEvent event, String messageId) {
        String id = messageId == null ? DeliveryIds.random() : DeliveryIds.derive(messageId, webhookId);
        return new NewDelivery(id, webhookId, payloads.of(id, event, messageId));
    }

    private Uni<Void> requestSends(List<String> inserted) {
        return inserted.isEmpty() ? Uni.createFrom().voidItem() : requests.request(inserted);
    }

    private void count(int candidates, int inserted) {
        metrics.counter("hookfan.deliveries.created").increment(inserted);
        metrics.counter("hookfan.deliveries.deduplicated").increment(candidates - inserted);
    }
}
