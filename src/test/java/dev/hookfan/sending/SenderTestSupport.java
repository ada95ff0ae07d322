package dev.hookfan.sending;

import dev.hookfan.support.Webhooks;
import dev.hookfan.deliveries.RequestedDelivery;
import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import dev.hookfan.support.Receiver;
import dev.hookfan.support.Receiver.Request;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.restassured.RestAssured.given;

/**
 * What the sender's tests share: an empty database, a subscriber (the {@link Receiver}) and the broker for each test,
 * webhooks created through the API, and reads of the delivery rows. No test profile: its subclasses share one start.
 */
abstract class SenderTestSupport {

    static final String ORG = "org_sender";

    @Inject
    DeliverySender sender;

    @Inject
    Vertx vertx;

    Receiver receiver;
    Broker broker;

    @BeforeEach
    void start() {
        Database.reset();
        receiver = Receiver.start();
        broker = Broker.connect();
    }

    @AfterEach
    void stop() {
        receiver.close();
        broker.close();
    }

    /** Creates a webhook on the receiver and returns {id, secret}. */
    String[] webhook(String path) {
        var created = Webhooks.created(given(), ORG, receiver.url(path));
        return new String[]{created.path("id"), created.path("secret")};
    }

    String publish(String type) {
        String messageId = Broker.newMessageId();
        broker.publish(type, messageId, Broker.event(type, ORG, "{\"n\":1}"));
        return messageId;
    }

    static String status(String deliveryId) {
        List<List<Object>> rows = Database.query("select status from webhook_delivery where id = ?", deliveryId);
        return rows.isEmpty() ? null : (String) rows.get(0).get(0);
    }

    static long attempts(String deliveryId) {
        return Database.count("select count(*) from delivery_attempt_history where delivery_id = ?", deliveryId);
    }

    static Map<String, List<String>> headersOf(Request request) {
        return request.headers().entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> List.of(e.getValue())));
    }

    /** PostgreSQL delivers a committed change's NOTIFY within milliseconds on loopback; this leaves it ample time. */
    static void settleNotifications() {
        try {
            Thread.sleep(300);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A delivery request as the fan-out publishes it: each delivery named with its webhook. */
    static byte[] request(List<RequestedDelivery> deliveries) {
        return ("{\"type\":\"webhook.delivery_requested\",\"deliveries\":[" + deliveries.stream()
                .map(d -> "{\"id\":\"" + d.id() + "\",\"webhookId\":\"" + d.webhookId() + "\",\"organizationId\":\""
                        + d.organizationId() + "\"}")
                .collect(Collectors.joining(",")) + "]}").getBytes(StandardCharsets.UTF_8);
    }

    /** The webhook-id headers the receiver got on paths prefix0, prefix1… */
    List<String> received(String pathPrefix, int webhooks) {
        return IntStream.range(0, webhooks).mapToObj(i -> receiver.requests(pathPrefix + i)).flatMap(List::stream)
                .map(r -> r.header("webhook-id")).toList();
    }

    /** The fast path as a delivery request takes it, from a Vert.x context of its own. */
    CompletableFuture<Void> requestOnItsOwnContext(String deliveryId, String webhookId) {
        CompletableFuture<Void> queued = new CompletableFuture<>();
        VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext()).runOnContext(ignored ->
                sender.requested(List.of(new RequestedDelivery(deliveryId, webhookId, ORG)))
                        .subscribe().with(queued::complete, queued::completeExceptionally));
        return queued;
    }
}
