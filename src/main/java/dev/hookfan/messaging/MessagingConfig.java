package dev.hookfan.messaging;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;

/** Names and limits of Hookfan's own broker topology. */
@ConfigMapping(prefix = "hookfan.messaging")
public interface MessagingConfig {

    /** Topic exchange the publishers send integration events to. */
    @WithDefault("integration-events")
    String exchange();

    /** Hookfan's work queue. */
    @WithDefault("hookfan.integration-events")
    String queue();

    /** quorum or classic; applies to every queue Hookfan declares but the DLQ, which is always classic. */
    @WithDefault("quorum")
    QueueType queueType();

    /** Binding keys of the work queue on the exchange. */
    @WithDefault("#")
    List<String> bindingKeys();

    /** A classic queue: looking at a message and putting it back is free there, whatever delivery limit a policy sets. */
    @WithDefault("hookfan.integration-events.dead-letters")
    String deadLetterQueue();

    /** The quorum DLQ of earlier releases (named after the work queue then): its letters are moved, in order, into the DLQ. */
    @WithDefault("${hookfan.messaging.queue}.dlq")
    String formerDeadLetterQueue();

    /** Queue of webhook.delivery_requested messages, consumed by the sender. */
    @WithDefault("hookfan.deliveries")
    String deliveriesQueue();

    /** Unacknowledged messages per consumer, all handled at once: the more, the larger the shared batches. */
    @WithDefault("128")
    int prefetch();

    /** Consumers on the work queue, each its own connection; events in flight at once = concurrency × prefetch. */
    @WithDefault("2")
    int concurrency();

    /**
     * Bytes of the messages being handled at once, over all consumers: a message costs a few times its size while
     * it is parsed, rendered and written, so this bounds the memory that takes. The rest wait, as delivered.
     */
    @WithDefault("16M")
    MemorySize maxBytesInHand();

    /** Larger messages go to the DLQ without running any handler. */
    @WithDefault("1M")
    MemorySize maxMessageSize();

    /** Milliseconds between a consumer's attempts to reconnect after the broker went away. */
    @WithDefault("2000")
    int reconnectIntervalMs();

    Retry retry();

    interface Retry {
        /** Retries after the first attempt; a message is handled at most limit + 1 times. */
        @WithDefault("5")
        int limit();

        @WithDefault("1S")
        Duration minInterval();

        @WithDefault("5S")
        Duration intervalDelta();

        @WithDefault("1M")
        Duration maxInterval();
    }

    enum QueueType {
        quorum, classic
    }
}
