package dev.hookfan.deliveries;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookfan.events.IntegrationEvent;
import dev.hookfan.events.IntegrationEventContext;
import dev.hookfan.events.IntegrationEventHandler;
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
public class WebhookFanOutHandler implements IntegrationEventHandler {

    private final WebhookDirectory directory;
    private final FanOutWriter writer;
    private final ObjectMapper mapper;
    private final IntegrationEventContext context;
    private final Counter created;
    private final Counter deduplicated;

    WebhookFanOutHandler(WebhookDirectory directory, FanOutWriter writer, ObjectMapper mapper,
                           IntegrationEventContext context, MeterRegistry metrics) {
        this.directory = directory;
        this.writer = writer;
        this.mapper = mapper;
        this.context = context;
        this.created = metrics.counter("hookfan.deliveries.created");
        this.deduplicated = metrics.counter("hookfan.deliveries.deduplicated");
    }

    @Override
    public boolean takes(String eventType) {
        return true;
    }

    @Override
    public Uni<Void> handle(IntegrationEvent event) {
        NewEvent stored = stored(event, context.messageId().orElse(null), context.traceparent().orElse(null));
        return directory.webhookIds(event.organizationId(), event.type())
                .chain(subscribed -> write(subscribed, stored))
                .replaceWithVoid();
    }

    /** Queues one event for one webhook alone (the test endpoint); there is no message, so the ids are random. */
    public Uni<String> queueFor(String webhookId, IntegrationEvent event) {
        return write(List.of(webhookId), stored(event, null, null)).map(ids -> ids.get(0));
    }

    /** Every delivery of the event refers to this, and to nothing else of it: no per-webhook copy of its data. */
    private NewEvent stored(IntegrationEvent event, String messageId, String traceparent) {
        String id = messageId == null ? DeliveryIds.random() : DeliveryIds.event(messageId, event.organizationId());
        return new NewEvent(id, event.organizationId(), messageId, event.type(), traceparent,
                () -> DeliveryBody.ofEvent(mapper, event, messageId));
    }

    private Uni<List<String>> write(List<String> subscribed, NewEvent event) {
        String key = event.messageId == null ? null : DeliveryIds.canonical(event.messageId);
        List<NewDelivery> candidates = subscribed.stream().map(webhookId -> new NewDelivery(key == null
                ? DeliveryIds.random() : DeliveryIds.deriveCanonical(key, webhookId), webhookId, event)).toList();
        return writer.write(candidates).invoke(inserted -> {
            created.increment(inserted.size());
            deduplicated.increment(candidates.size() - inserted.size());
        });
    }
}
