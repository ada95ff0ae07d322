package dev.hookfan.bench;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** A real publisher: persistent messages, publisher confirms with a bounded window of unconfirmed ones. */
final class Publisher implements AutoCloseable {

    private final Connection connection;
    private final Channel channel;
    private final int window;
    private final Semaphore unconfirmed;
    private final ConcurrentNavigableMap<Long, Boolean> outstanding = new ConcurrentSkipListMap<>();
    private final AtomicLong nacked = new AtomicLong();

    Publisher(String uri, int window) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(uri);
        this.connection = factory.newConnection("hookfan-bench-publisher");
        this.channel = connection.createChannel();
        this.window = window;
        this.unconfirmed = new Semaphore(window);
        channel.confirmSelect();
        channel.addConfirmListener((tag, multiple) -> settle(tag, multiple, false), (tag, multiple) -> settle(tag, multiple, true));
    }

    private void settle(long tag, boolean multiple, boolean nack) {
        var settled = multiple ? outstanding.headMap(tag, true) : outstanding.subMap(tag, true, tag, true);
        int count = settled.size();
        settled.clear();
        if (nack) {
            nacked.addAndGet(count);
        }
        unconfirmed.release(count);
    }

    void publish(String exchange, String routingKey, String messageId, byte[] body) throws Exception {
        unconfirmed.acquire();
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder()
                .messageId(messageId)
                .contentType("application/json")
                .deliveryMode(2)
                .build();
        synchronized (channel) {
            outstanding.put(channel.getNextPublishSeqNo(), Boolean.TRUE);
            channel.basicPublish(exchange, routingKey, properties, body);
        }
    }

    /** Waits for every confirm; fails if the broker refused any message. */
    void awaitConfirms() throws Exception {
        if (!unconfirmed.tryAcquire(window, 60, TimeUnit.SECONDS)) {
            throw new IllegalStateException(outstanding.size() + " publishes unconfirmed after 60 s");
        }
        unconfirmed.release(window);
        if (nacked.get() > 0) {
            throw new IllegalStateException(nacked.get() + " publishes nacked by the broker");
        }
    }

    String serverVersion() {
        return String.valueOf(connection.getServerProperties().get("version"));
    }

    void purge(String queue) throws Exception {
        try (Channel admin = connection.createChannel()) {
            admin.queuePurge(queue);
        }
    }

    long count(String queue) throws Exception {
        try (Channel admin = connection.createChannel()) {
            return admin.queueDeclarePassive(queue).getMessageCount();
        }
    }

    void delete(String queue) throws Exception {
        try (Channel admin = connection.createChannel()) {
            admin.queueDelete(queue);
        }
    }

    @Override
    public void close() throws Exception {
        connection.close();
    }
}
