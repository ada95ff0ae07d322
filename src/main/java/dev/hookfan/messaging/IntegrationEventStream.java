package dev.hookfan.messaging;

import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Acknowledgment;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.util.concurrent.Flow;

/**
 * Hands the messages a work-queue consumer holds (its prefetch) to {@link IntegrationEventConsumer}, as many at once as
 * hookfan.messaging.max-bytes-in-hand allows over all consumers.
 */
@ApplicationScoped
class IntegrationEventStream {

    private final IntegrationEventConsumer consumer;
    private final MessagingConfig config;
    /** One budget for every consumer of the work queue: it bounds the service's memory, not a connection's. */
    private final BytesInHand bytes;
    private final ConsumerStreams streams;
    private final Vertx vertx;

    IntegrationEventStream(IntegrationEventConsumer consumer, MessagingConfig config, MeterRegistry metrics,
                           ConsumerStreams streams, Vertx vertx) {
        this.consumer = consumer;
        this.vertx = vertx;
        this.streams = streams;
        this.config = config;
        this.bytes = new BytesInHand(config.maxBytesInHand().asLongValue());
        metrics.gauge("hookfan.messaging.bytes_in_hand", bytes, BytesInHand::taken);
    }

    /** Called once per consumer (channel copy); the consumer settles every message itself. */
    @Incoming(ConsumerStart.EVENTS)
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    Flow.Subscriber<Message<byte[]>> handleAtOnce() {
        return ConcurrentConsumption.of(ConsumerStart.EVENTS, config.prefetch(), bytes, consumer::consume, streams, vertx);
    }
}
