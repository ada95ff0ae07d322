package dev.hookfan.messaging;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.operators.multi.processors.UnicastProcessor;
import io.smallrye.reactive.messaging.providers.locals.LocalContextMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Acknowledgment;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import java.util.concurrent.Flow;

/**
 * Hands every message a consumer has been given to {@link IntegrationEventConsumer} at once, up to the prefetch, each
 * on its own Vert.x context and request scope. A method that returns a Uni would take one message at a time per
 * consumer; many in flight let the handlers share statements and commits (see GroupCommit) over few connections.
 */
@ApplicationScoped
class IntegrationEventStream {

    private static final Logger LOG = Logger.getLogger(IntegrationEventStream.class);

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
        // Requests without bound: the broker's prefetch (basic.qos) is what limits the messages in hand.
        UnicastProcessor<Message<byte[]>> messages = UnicastProcessor.create();
        messages.onItem().transformToUni(this::consumeOnItsContext)
                .merge(config.prefetch())
                .subscribe().with(
                        settled -> {
                        },
                        failure -> LOG.errorf("The work queue's stream failed; this consumer stops: %s", failure.toString()));
        return messages;
    }

    /** As SmallRye calls a consuming method: on the duplicated context the connector made for the message. */
    private Uni<Void> consumeOnItsContext(Message<byte[]> message) {
        return LocalContextMetadata.<Uni<Void>>invokeOnMessageContext(message, ignored -> consumer.consume(message))
                .flatMap(settling -> settling);
    }
}
