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
                        .chain(subscribed -> queueMissing(subscribed, event, source)))
                .chain(this::requestSends);
    }

    /** Queues one event for one webhook alone (the test endpoint); there is no message, so the id is random. */
    public Uni<String> dispatchTo(Webhook webhook, IntegrationEvent event) {
        DeliverySource source = new DeliverySource(event.organizationId(), event.type(), null, null);
        return Panache.withSession(() -> queueMissing(List.of(webhook.id), event, source))
                .call(this::requestSends)
                .map(ids -> ids.get(0));
    }

    private Uni<List<String>> queueMissing(List<String> subscribed, IntegrationEvent event, DeliverySource source) {
        if (subscribed.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<NewDelivery> candidates = subscribed.stream()
                .map(webhookId -> candidate(webhookId, event, source.messageId()))
                .toList();
        return deliveries.existingIds(candidates.stream().map(NewDelivery::id).toList())
                .map(existing -> missing(candidates, existing))
                .chain(missing -> missing.isEmpty()
                        // A replay costs this one read (subscriptions are cached): no transaction, no write, no publish.
                        ? Uni.createFrom().item(List.<String>of())
                        : Panache.withTransaction(() -> deliveries.insertIfAbsent(missing, source, Cursor.now(), config.sweepGrace())))
                .invoke(inserted -> count(candidates.size(), inserted.size()));
    }

    private NewDelivery candidate(String webhookId, IntegrationEvent event, String messageId) {
        String id = messageId == null ? DeliveryIds.random() : DeliveryIds.derive(messageId, webhookId);
        return new NewDelivery(id, webhookId, payloads.of(id, event, messageId));
    }

    private static List<NewDelivery> missing(List<NewDelivery> candidates, List<String> existing) {
        Set<String> written = new HashSet<>(existing);
        return candidates.stream().filter(candidate -> !written.contains(candidate.id())).toList();
    }

    private Uni<Void> requestSends(List<String> inserted) {
        return inserted.isEmpty() ? Uni.createFrom().voidItem() : requests.request(inserted);
    }

    private void count(int candidates, int inserted) {
        metrics.counter("hookfan.deliveries.created").increment(inserted);
        metrics.counter("hookfan.deliveries.deduplicated").increment(candidates - inserted);
    }
}
