package dev.hookfan.messaging;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Return;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Context;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Publishes to a queue through the default exchange, mandatory and confirmed, on a channel of its own: the
 * connector's publisher cannot set mandatory, and a copy the broker confirms but routes to no queue is a lost event.
 * A returned copy fails (and the topology is declared again); only a confirm without a return succeeds.
 */
@Singleton
class MandatoryPublisher {

    private static final Logger LOG = Logger.getLogger(MandatoryPublisher.class);
    /** Ties a basic.return to its publish (a return carries no delivery tag); stripped when the copy is copied again. */
    static final String SEQUENCE_HEADER = "hookfan-copy-sequence";
    static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(10);

    private final BrokerTopology topology;
    // The Java client's publish writes to the socket and may block on flow control: never on an event loop.
    private final ExecutorService publishing = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "hookfan-copies");
        thread.setDaemon(true);
        return thread;
    });
    private Connection connection;
    private CopyChannel channel;

    MandatoryPublisher(BrokerTopology topology) {
        this.topology = topology;
    }

    /** Completes on the caller's Vert.x context once the broker confirmed the message and did not return it. */
    Uni<Void> publish(String queue, AMQP.BasicProperties properties, byte[] body) {
        CompletableFuture<Void> confirmed = new CompletableFuture<>();
        publishing.execute(() -> {
            try {
                channel().publish(queue, properties, body, confirmed);
            } catch (Exception | Error failure) {
                confirmed.completeExceptionally(failure);
                closeQuietly();
            }
        });
        confirmed.orTimeout(CONFIRM_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        Uni<Void> result = Uni.createFrom().completionStage(confirmed);
        Context caller = Vertx.currentContext();
        return caller == null ? result : result.emitOn(caller::runOnContext);
    }

    private CopyChannel channel() throws Exception {
        if (channel != null && channel.isOpen()) {
            return channel;
        }
        if (connection == null || !connection.isOpen()) {
            connection = topology.connectionFactory().newConnection(topology.addresses(), "hookfan (retry and DLQ copies)");
        }
        channel = new CopyChannel(connection.createChannel());
        return channel;
    }

    private void closeQuietly() {
        try {
            if (connection != null) {
                connection.abort(1000);
            }
        } finally {
            connection = null;
            channel = null;
        }
    }

    void close(@Observes ShutdownEvent event) {
        publishing.execute(this::closeQuietly);
        publishing.shutdown();
    }

    /** One confirm-mode channel and the publishes it has not settled yet, by sequence number (each channel counts from 1). */
    private final class CopyChannel {

        private final Channel amqp;
        private final ConcurrentNavigableMap<Long, CompletableFuture<Void>> unsettled = new ConcurrentSkipListMap<>();

        CopyChannel(Channel amqp) throws java.io.IOException {
            this.amqp = amqp;
            amqp.confirmSelect();
            amqp.addReturnListener(this::returned);
            amqp.addConfirmListener((tag, multiple) -> settle(tag, multiple, null),
                    (tag, multiple) -> settle(tag, multiple, new CopyRefusedException("the broker refused (nacked) the copy")));
            amqp.addShutdownListener(cause -> {
                CopyRefusedException closed = new CopyRefusedException("the channel closed before the broker confirmed the copy: " + cause.getMessage());
                unsettled.values().forEach(future -> future.completeExceptionally(closed));
                unsettled.clear();
            });
        }

        boolean isOpen() {
            return amqp.isOpen();
        }

        void publish(String queue, AMQP.BasicProperties properties, byte[] body, CompletableFuture<Void> confirmed) throws java.io.IOException {
            long sequence = amqp.getNextPublishSeqNo();
            Map<String, Object> headers = new HashMap<>(properties.getHeaders() == null ? Map.of() : properties.getHeaders());
            headers.put(SEQUENCE_HEADER, sequence);
            unsettled.put(sequence, confirmed);
            confirmed.whenComplete((ignored, failure) -> unsettled.remove(sequence, confirmed));
            amqp.basicPublish("", queue, true, properties.builder().headers(headers).build(), body);
        }

        /** The broker sends a return before the confirm of the same message. */
        private void returned(Return returned) {
            Map<String, Object> headers = returned.getProperties().getHeaders();
            Object sequence = headers == null ? null : headers.get(SEQUENCE_HEADER);
            LOG.errorf("The broker returned a copy for queue %s (%d %s): declaring the topology again",
                    returned.getRoutingKey(), returned.getReplyCode(), returned.getReplyText());
            if (sequence instanceof Number number) {
                CompletableFuture<Void> future = unsettled.remove(number.longValue());
                if (future != null) {
                    future.completeExceptionally(new CopyRefusedException("no queue " + returned.getRoutingKey()
                            + " to route the copy to (" + returned.getReplyText() + ")"));
                }
            }
            topology.redeclare();
        }

        private void settle(long tag, boolean multiple, CopyRefusedException refused) {
            Map<Long, CompletableFuture<Void>> settled = multiple ? unsettled.headMap(tag, true) : subMapOf(tag);
            for (CompletableFuture<Void> future : settled.values()) {
                if (refused == null) {
                    future.complete(null);
                } else {
                    future.completeExceptionally(refused);
                }
            }
        }

        private Map<Long, CompletableFuture<Void>> subMapOf(long tag) {
            CompletableFuture<Void> future = unsettled.get(tag);
            return future == null ? Map.of() : Map.of(tag, future);
        }
    }

    /** The copy did not reach a queue for certain: the original must be handed back, not acked. */
    static final class CopyRefusedException extends RuntimeException {
        CopyRefusedException(String message) {
            super(message);
        }
    }
}
