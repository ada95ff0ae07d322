package dev.hookfan.messaging;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.operators.multi.processors.UnicastProcessor;
import io.smallrye.reactive.messaging.providers.locals.LocalContextMetadata;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import java.util.concurrent.Flow;
import java.util.function.Function;

/**
 * A consumer that handles up to a bound of messages at once, each on the Vert.x context the connector made for it,
 * as SmallRye calls a consuming method. A method that returns a Uni takes one message at a time per channel copy;
 * many at once over one connection let the handlers share statements and commits.
 */
final class ConcurrentConsumption {

    private static final Logger LOG = Logger.getLogger(ConcurrentConsumption.class);

    private ConcurrentConsumption() {
    }

    /** The handler settles each message itself; it is called at most {@code atOnce} times without having completed. */
    static Flow.Subscriber<Message<byte[]>> of(String channel, int atOnce, Function<Message<byte[]>, Uni<Void>> handler) {
        // Requests without bound: the broker's prefetch (basic.qos) is what limits the messages in hand.
        UnicastProcessor<Message<byte[]>> messages = UnicastProcessor.create();
        messages.onItem().transformToUni(message -> LocalContextMetadata.<Uni<Void>>invokeOnMessageContext(message,
                        ignored -> handler.apply(message)).flatMap(settling -> settling))
                .merge(atOnce)
                .subscribe().with(
                        settled -> {
                        },
                        failure -> LOG.errorf("The stream of channel %s failed; this consumer stops: %s", channel, failure.toString()));
        return messages;
    }
}
