package dev.hookfan.deliveries;

import dev.hookfan.events.IntegrationEvent;
import dev.hookfan.events.IntegrationEventContext;
import dev.hookfan.events.IntegrationEventHandler;
import dev.hookfan.webhooks.Webhook;
import dev.hookfan.webhooks.WebhookDirectory;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;

import java.util.List;

/**
 * Fans an event out to the organization's subscribed webhooks, once per (message, webhook) however often the
 * message comes back: ids derived from the message id, one lookup of the ids already written, only the
 * missing rows inserted, and the sender asked to send only after the commit (see {@link FanOutWriter}).
 */
@Singleton
public class WebhookEventDispatcher implements IntegrationEventHandler {

    private final WebhookDirectory directory;
    private final FanOutWriter writer;
    private final DeliveryPayloads payloads;
    private final IntegrationEventContext context;
    private final Counter created;
    private final Counter deduplicated;

    WebhookEventDispatcher(WebhookDirectory directory, FanOutWriter writer, DeliveryPayloads payloads,
                           IntegrationEventContext context, MeterRegistry metrics) {
        this.directory = directory;
        this.writer = writer;
        this.payloads = payloads;
        this.context = context;
        this.created = metrics.counter("hookfan.deliveries.created");
        this.deduplicated = metrics.counter("hookfan.deliveries.deduplicated");
    }

    @Override
    public boolean takes(String eventType) {
        return true;
    }

    /** Its writes go straight to the reactive pool ({@link FanOutWriter}), never through a session. */
    @Override
    public boolean usesSession() {
        return false;
    }

    @Override
    public Uni<Void> handle(IntegrationEvent event) {
        DeliverySource source = new DeliverySource(event.organizationId(), event.type(),
                context.messageId().orElse(null), context.traceparent().orElse(null));
        return directory.webhookIds(event.organizationId(), event.type())
                .chain(subscribed -> write(subscribed, event, source))
                .replaceWithVoid();
    }

    /** Queues one event for one webhook alone (the test endpoint); there is no message, so the id is random. */
    public Uni<String> dispatchTo(Webhook webhook, IntegrationEvent event) {
        DeliverySource source = new DeliverySource(event.organizationId(), event.type(), null, null);
        return write(List.of(webhook.id), event, source).map(ids -> ids.get(0));
    }

    private Uni<List<String>> write(List<String> subscribed, IntegrationEvent event, DeliverySource source) {
        List<NewDelivery> candidates = subscribed.stream().map(webhookId -> candidate(webhookId, event, source)).toList();
        return writer.write(candidates).invoke(inserted -> {
            created.increment(inserted.size());
            deduplicated.increment(candidates.size() - inserted.size());
        });
    }

    private NewDelivery candidate(String webhookId, IntegrationEvent event, DeliverySource source) {
        String id = source.messageId() == null ? DeliveryIds.random() : DeliveryIds.derive(source.messageId(), webhookId);
        return new NewDelivery(id, webhookId, payloads.of(id, event, source.messageId()), source);
    }
}
