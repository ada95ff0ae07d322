package dev.hookfan.support;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import org.eclipse.microprofile.config.ConfigProvider;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The real broker as a publisher and an inspector see it, on the test profile's vhost. */
public final class Broker implements AutoCloseable {

    public static final String EXCHANGE = "integration-events";
    public static final String WORK_QUEUE = "hookfan.integration-events";
    public static final String DLQ = "hookfan.integration-events.dead-letters";
    /** The quorum DLQ of earlier releases. */
    public static final String FORMER_DLQ = "hookfan.integration-events.dlq";
    public static final String DELIVERIES = "hookfan.deliveries";

    private final Connection connection;
    private final Channel channel;

    private Broker(Connection connection) throws IOException {
        this.connection = connection;
        this.channel = connection.createChannel();
        this.channel.confirmSelect();
    }

    public static Broker connect() {
        var config = ConfigProvider.getConfig();
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(config.getOptionalValue("rabbitmq-host", String.class).orElse("localhost"));
        factory.setPort(config.getOptionalValue("rabbitmq-port", Integer.class).orElse(5672));
        factory.setUsername(config.getOptionalValue("rabbitmq-username", String.class).orElse("guest"));
        factory.setPassword(config.getOptionalValue("rabbitmq-password", String.class).orElse("guest"));
        factory.setVirtualHost(config.getOptionalValue("rabbitmq-virtual-host", String.class).orElse("/"));
        try {
            return new Broker(factory.newConnection("hookfan-tests"));
        } catch (Exception e) {
            throw new IllegalStateException("RabbitMQ is not reachable; run scripts/services.sh", e);
        }
    }

    public static String event(String type, String organizationId, String dataJson) {
        return "{\"type\":\"" + type + "\",\"organizationId\":\"" + organizationId
                + "\",\"occurredAt\":\"2026-12-02T10:00:00Z\",\"data\":" + dataJson + "}";
    }

    /** Publishes as a real publisher would: persistent, JSON, the event type as routing key, confirmed. */
    public void publish(String routingKey, String messageId, String body) {
        publish(routingKey, messageId, body.getBytes(StandardCharsets.UTF_8), Map.of());
    }

    public void publish(String routingKey, String messageId, byte[] body, Map<String, Object> headers) {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder()
                .messageId(messageId)
                .contentType("application/json")
                .deliveryMode(2)
                .headers(new HashMap<>(headers))
                .build();
        try {
            channel.basicPublish(EXCHANGE, routingKey, properties, body);
            channel.waitForConfirmsOrDie(10_000);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Publishes straight to a queue through the default exchange, confirmed; fails if the broker nacks it. */
    public void publishTo(String queue, String messageId, byte[] body) {
        try {
            channel.basicPublish("", queue, new AMQP.BasicProperties.Builder().messageId(messageId).deliveryMode(2).build(), body);
            channel.waitForConfirmsOrDie(10_000);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** As Hookfan dead-letters a message: straight into the DLQ, with the reason in its headers. */
    public void deadLetter(String messageId, String body, int attempts, String error) {
        deadLetterInto(DLQ, messageId, body, attempts, error);
    }

    /** As an earlier release declared its DLQ: durable, quorum. */
    public void declareFormerDeadLetterQueue() {
        try {
            channel.queueDeclare(FORMER_DLQ, true, false, false, Map.of("x-queue-type", "quorum"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public void deadLetterInto(String queue, String messageId, String body, int attempts, String error) {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().messageId(messageId).contentType("application/json")
                .deliveryMode(2).headers(new HashMap<>(Map.of("hookfan-attempts", attempts, "hookfan-error", error,
                        "hookfan-dead-lettered-at", java.time.Instant.now().toString()))).build();
        try {
            channel.basicPublish("", queue, properties, body.getBytes(StandardCharsets.UTF_8));
            channel.waitForConfirmsOrDie(10_000);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** As RabbitMQ dead-letters a message through a queue's dead-letter policy: an x-death header, nothing of Hookfan's. */
    public void deadLetterByTheBroker(String messageId, String body, String reason, String queue) {
        Map<String, Object> death = Map.of("reason", reason, "queue", queue, "count", 1L, "exchange", "",
                "routing-keys", List.of(queue));
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().messageId(messageId).contentType("application/json")
                .deliveryMode(2).headers(new HashMap<>(Map.of("x-death", List.of(death), "x-first-death-reason", reason))).build();
        try {
            channel.basicPublish("", DLQ, properties, body.getBytes(StandardCharsets.UTF_8));
            channel.waitForConfirmsOrDie(10_000);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** An exclusive queue of a connection of its own, as another instance holds a lock, until closed. */
    public AutoCloseable holdExclusiveQueue(String name) {
        try {
            ConnectionFactory factory = new ConnectionFactory();
            factory.setHost(connection.getAddress().getHostAddress());
            factory.setPort(connection.getPort());
            factory.setVirtualHost(ConfigProvider.getConfig().getOptionalValue("rabbitmq-virtual-host", String.class).orElse("/"));
            Connection own = factory.newConnection("hookfan-tests (lock holder)");
            own.createChannel().queueDeclare(name, false, true, true, null);
            return own::close;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Takes every message in the queue without acknowledging it, then gives them all back, as a look does. */
    public int drainAndReturn(String queue) {
        try (Channel look = connection.createChannel()) {
            int taken = 0;
            while (look.basicGet(queue, false) != null) {
                taken++;
            }
            return taken;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public static String newMessageId() {
        return UUID.randomUUID().toString();
    }

    public long count(String queue) {
        try {
            return channel.queueDeclarePassive(queue).getMessageCount();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public void purge(String queue) {
        try {
            channel.queuePurge(queue);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Empties the queue if it exists: a retry tier appears only once an instance has declared it. */
    public void purgeIfPresent(String queue) {
        Channel probe = null;
        try {
            probe = connection.createChannel();
            probe.queuePurge(queue);
            probe.close();
        } catch (IOException | java.util.concurrent.TimeoutException | com.rabbitmq.client.ShutdownSignalException missing) {
            // A missing queue closes only the probe channel: there is nothing to purge.
        }
    }

    /** As an operator or a policy might, while Hookfan runs. */
    public void deleteQueue(String queue) {
        try {
            channel.queueDelete(queue);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public boolean exists(String queue) {
        Channel probe = null;
        try {
            probe = connection.createChannel();
            probe.queueDeclarePassive(queue);
            probe.close();
            return true;
        } catch (IOException | java.util.concurrent.TimeoutException | com.rabbitmq.client.ShutdownSignalException missing) {
            return false;
        }
    }

    /** A queue of this connection's own, bound to the exchange with the key, gone when the connection closes: a listener. */
    public String listen(String routingKey) {
        try {
            String queue = channel.queueDeclare().getQueue();
            channel.queueBind(queue, EXCHANGE, routingKey);
            return queue;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Takes every message now in the queue (acked, so the queue is left empty). */
    public List<GetResponse> drain(String queue) {
        List<GetResponse> messages = new ArrayList<>();
        try {
            GetResponse response;
            while ((response = channel.basicGet(queue, true)) != null) {
                messages.add(response);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return messages;
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (Exception ignored) {
            // the test is over either way
        }
    }
}
