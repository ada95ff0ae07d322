package dev.hookfan.deliveries;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hookfan.api.ApiException;
import dev.hookfan.api.NotFound;
import dev.hookfan.api.RequestBodies;
import dev.hookfan.events.IntegrationEvent;
import dev.hookfan.webhooks.WebhookService;
import dev.hookfan.webhooks.WebhookView;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;

import java.time.Instant;
import java.util.List;

/**
 * What an organization sends by hand: a test event, one delivery again, a webhook's failed deliveries again. Each
 * counts against the organization's manual-send allowance, and a disabled webhook is refused rather than queued for.
 */
@Singleton
public class ManualSendService {

    static final String TEST_EVENT = "webhook.test";

    private final WebhookService webhooks;
    private final WebhookFanOutHandler fanOut;
    private final DeliveryRepository deliveries;
    private final DeliveryRequests requests;
    private final FailedDeliveriesRecovery recovery;
    private final ManualSendLimit limit;
    private final RequestBodies bodies;
    private final RecoveryConfig config;

    ManualSendService(WebhookService webhooks, WebhookFanOutHandler fanOut, DeliveryRepository deliveries,
                      DeliveryRequests requests, FailedDeliveriesRecovery recovery, ManualSendLimit limit,
                      RequestBodies bodies, RecoveryConfig config) {
        this.webhooks = webhooks;
        this.fanOut = fanOut;
        this.deliveries = deliveries;
        this.requests = requests;
        this.recovery = recovery;
        this.limit = limit;
        this.bodies = bodies;
        this.config = config;
    }

    /** Queues a webhook.test event to this webhook alone; answers the delivery's id (random, as there is no message). */
    public Uni<String> test(String organizationId, String webhookId) {
        return enabledWebhook(organizationId, webhookId, "sending a test")
                .chain(webhook -> fanOut.queueFor(webhook.id(), new IntegrationEvent(TEST_EVENT, organizationId,
                        Instant.now(), JsonNodeFactory.instance.objectNode().put("webhookId", webhook.id()))));
    }

    /** Sends the delivery again now, same id and payload, as a new attempt; 409 when its webhook was deleted. */
    public Uni<String> redeliver(String organizationId, String deliveryId) {
        return DeliveryService.wellFormed(organizationId, deliveryId).invoke(() -> limit.take(organizationId))
                .chain(() -> deliveries.reopen(organizationId, deliveryId))
                .onItem().ifNull().failWith(NotFound::delivery)
                .call(delivery -> requests.request(List.of(delivery)))
                .map(RequestedDelivery::id);
    }

    /** Sends every failed delivery of the webhook created in the body's window again; answers how many. */
    public Uni<Integer> recover(String organizationId, String webhookId, JsonNode body) {
        Instant now = Instant.now();
        return Uni.createFrom().item(() -> bodies.read(body, RecoverRequest.class, RecoverRequest.BODY,
                        request -> request.problems(config.maxWindow(), now)).window(now))
                .chain(window -> enabledWebhook(organizationId, webhookId, "recovering its deliveries")
                        .chain(webhook -> recovery.recover(webhook.id(), window)));
    }

    /** The organization's webhook, if enabled (409 otherwise), with one manual send taken from the allowance. */
    private Uni<WebhookView> enabledWebhook(String organizationId, String webhookId, String action) {
        return webhooks.get(organizationId, webhookId).invoke(webhook -> {
            if (!webhook.enabled()) {
                throw ApiException.conflict("webhook-disabled", "Webhook " + webhook.id() + " is disabled; enable it before "
                        + action);
            }
            limit.take(organizationId);
        });
    }
}
