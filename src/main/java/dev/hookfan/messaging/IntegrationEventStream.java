package dev.hookfan.messaging;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Acknowledgment;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.util.concurrent.Flow;

/** Hands every message a work-queue consumer holds (its prefetch) to {@link IntegrationEventConsumer} at once. */
@ApplicationScoped
class IntegrationEventStream {

    private final IntegrationEventConsumer consumer;
    private final MessagingConfig config;

    IntegrationEventStream(IntegrationEventConsumer consumer, MessagingConfig config) {
        this.consumer = consumer;
        this.config = config;
    }

    /** Called once per consumer (channel copy); the consumer settles every message itself. */
    @Incoming(ConsumerStart.EVENTS)
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    Flow.Subscriber<Message<byte[]>> handleAtOnce() {
        return ConcurrentConsumption.of(ConsumerStart.EVENTS, config.prefetch(), consumer::consume);
    }
}
