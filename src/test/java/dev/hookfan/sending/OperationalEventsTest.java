package dev.hookfan.sending;

import dev.hookfan.support.Webhooks;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.GetResponse;
import dev.hookfan.deliveries.DeliveryIds;
import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import dev.hookfan.support.Receiver;
import dev.hookfan.support.Receiver.Answer;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What Hookfan tells about itself, as integration events on its own exchange: to any consumer bound to hookfan.#, and
 * to the organization's webhooks subscribed to those types, like any event.
 */
@QuarkusTest
class OperationalEventsTest {

    static final String ORG = "org_operations";
    static final ObjectMapper JSON = new ObjectMapper();

    Receiver receiver;
    Broker broker;
    String listener;
    final List<GetResponse> heard = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        Database.reset();
        receiver = Receiver.start();
        broker = Broker.connect();
        listener = broker.listen("hookfan.#");
    }

    @AfterEach
    void stop() {
        receiver.close();
        broker.close();
    }

    String webhook(String path, String types) {
        return Webhooks.create(ORG, receiver.url(path), "\"eventTypes\":" + types);
    }

    String publish() {
        String messageId = Broker.newMessageId();
        broker.publish("a.b", messageId, Broker.event("a.b", ORG, "{}"));
        return messageId;
    }

    /** The operational events of this type heard so far on the exchange. */
    List<GetResponse> heard(String type) {
        heard.addAll(broker.drain(listener));
        return heard.stream().filter(message -> type.equals(message.getEnvelope().getRoutingKey())).toList();
    }

    static JsonNode body(GetResponse message) throws Exception {
        return JSON.readTree(new String(message.getBody(), StandardCharsets.UTF_8));
    }

    static String sha256(String text) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void should_announce_a_webhook_disabled_by_410_to_consumers_and_to_subscribed_webhooks() throws Exception {
        String gone = webhook("/gone", "[\"a.b\"]");
        webhook("/watching", "[\"hookfan.webhook.disabled\"]");
        receiver.script("/gone", Answer.status(410));
        publish();

        await().atMost(Duration.ofSeconds(15)).until(() -> heard("hookfan.webhook.disabled").size() == 1);
        GetResponse disabled = heard("hookfan.webhook.disabled").get(0);
        // Derived from the fact: the webhook and the version its disabling gave it.
        assertEquals(sha256("hookfan.webhook.disabled/" + gone + "/1"), disabled.getProps().getMessageId());
        JsonNode event = body(disabled);
        assertEquals(ORG, event.get("organizationId").asText());
        assertEquals(gone, event.get("data").get("webhookId").asText());
        assertTrue(event.get("data").get("reason").asText().contains("410"), event.toString());

        await().atMost(Duration.ofSeconds(15)).until(() -> receiver.requests("/watching").size() == 1);
        String sent = receiver.requests("/watching").get(0).body();
        assertTrue(sent.contains("\"type\":\"hookfan.webhook.disabled\"") && sent.contains(gone), sent);
        assertEquals(DeliveryIds.derive(disabled.getProps().getMessageId(), Database.query(
                "select id from webhook where url like '%/watching'").get(0).get(0).toString()),
                receiver.requests("/watching").get(0).header("webhook-id"));
        await().atMost(Duration.ofSeconds(5)).until(() -> Database.count("select count(*) from operational_event") == 0);
    }

    @Test
    void should_send_operational_events_only_to_webhooks_that_name_their_type() {
        webhook("/everything", "[\"*\"]");
        String gone = webhook("/gone", "[\"a.b\"]");
        receiver.script("/gone", Answer.status(410));
        publish();

        await().atMost(Duration.ofSeconds(15)).until(() -> heard("hookfan.webhook.disabled").size() == 1);
        // "*" takes every event a publisher sends, not what Hookfan says about itself.
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> receiver.requests("/everything").size() == 1);
        assertTrue(receiver.requests("/everything").get(0).body().contains("\"type\":\"a.b\""));
        assertEquals(1, Database.count("select count(*) from webhook where id = ? and not enabled", gone));
    }

    @Test
    void should_announce_an_exhausted_delivery_and_then_once_the_webhook_recovered() throws Exception {
        String flaky = webhook("/flaky", "[\"a.b\"]");
        receiver.script("/flaky", Answer.status(503), Answer.status(503), Answer.status(503), Answer.status(503));
        String exhaustedId = DeliveryIds.derive(publish(), flaky);

        await().atMost(Duration.ofSeconds(20)).until(() -> heard("hookfan.delivery.exhausted").size() == 1);
        JsonNode exhausted = body(heard("hookfan.delivery.exhausted").get(0));
        assertEquals(exhaustedId, exhausted.get("data").get("deliveryId").asText());
        assertEquals(flaky, exhausted.get("data").get("webhookId").asText());
        assertEquals(4, exhausted.get("data").get("attempts").asInt());
        assertEquals("a.b", exhausted.get("data").get("eventType").asText());

        publish();
        await().atMost(Duration.ofSeconds(15)).until(() -> heard("hookfan.webhook.recovered").size() == 1);
        assertEquals(flaky, body(heard("hookfan.webhook.recovered").get(0)).get("data").get("webhookId").asText());
        // A webhook that is healthy already is not announced again.
        String third = DeliveryIds.derive(publish(), flaky);
        await().atMost(Duration.ofSeconds(10)).until(() -> "delivered".equals(SenderTestSupport.status(third)));
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> heard("hookfan.webhook.recovered").size() == 1);
    }

    @Test
    void should_not_announce_the_exhaustion_of_an_operational_event_delivery() {
        String down = webhook("/down", "[\"a.b\",\"hookfan.delivery.exhausted\"]");
        Answer[] failures = new Answer[8];
        java.util.Arrays.fill(failures, Answer.status(503));
        receiver.script("/down", failures);
        publish();

        await().atMost(Duration.ofSeconds(20)).until(() -> heard("hookfan.delivery.exhausted").size() == 1);
        // The webhook takes the announcement's type too, and that delivery exhausts as well: unannounced.
        await().atMost(Duration.ofSeconds(20)).until(() -> Database.count("select count(*) from webhook_delivery d join"
                + " delivery_event e on e.id = d.event_id where d.webhook_id = ? and e.event_type = 'hookfan.delivery.exhausted'"
                + " and d.status = 'failed'", down) == 1);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> heard("hookfan.delivery.exhausted").size() == 1);
    }
}
