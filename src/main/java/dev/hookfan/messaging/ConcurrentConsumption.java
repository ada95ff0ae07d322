package dev.hookfan.messaging;

import io.smallrye.mutiny.Uni;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A consumer that handles many messages at once, each on a Vert.x context of its own (the one the connector emitted
 * it on, or a duplicate of it), as SmallRye calls a consuming method: up to {@code atOnce} of them, and no more bytes
 * than the shared {@link BytesInHand} allows. A method that returns a Uni takes one message at a time per channel
 * copy; many at once over one connection let the handlers share statements and commits. The rest wait, in order, as
 * the broker delivered them.
 */
final class ConcurrentConsumption implements Flow.Subscriber<Message<byte[]>> {

    private static final Logger LOG = Logger.getLogger(ConcurrentConsumption.class);

    private final String channel;
    private final int atOnce;
    private final BytesInHand bytes;
    private final Function<Message<byte[]>, Uni<Void>> handler;
    private final ConsumerStreams streams;
    private final Vertx vertx;
    private final Queue<Waiting> waiting = new ArrayDeque<>();
    private final AtomicInteger draining = new AtomicInteger();
    private int running;

    /** A message and the context it arrived on: a start may come from another thread, once room is released. */
    private record Waiting(Message<byte[]> message, Context arrivedOn) {
    }

    private ConcurrentConsumption(String channel, int atOnce, BytesInHand bytes, Function<Message<byte[]>, Uni<Void>> handler,
                                  ConsumerStreams streams, Vertx vertx) {
        this.channel = channel;
        this.vertx = vertx;
        this.streams = streams;
        this.atOnce = atOnce;
        this.bytes = bytes;
        this.handler = handler;
    }

    /** The handler settles each message itself. */
    static Flow.Subscriber<Message<byte[]>> of(String channel, int atOnce, BytesInHand bytes,
                                               Function<Message<byte[]>, Uni<Void>> handler, ConsumerStreams streams,
                                               Vertx vertx) {
        ConcurrentConsumption consumption = new ConcurrentConsumption(channel, atOnce, bytes, handler, streams, vertx);
        bytes.onRoom(consumption::drain);
        return consumption;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        // Requests without bound: the broker's prefetch (basic.qos) is what limits the messages delivered.
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(Message<byte[]> message) {
        synchronized (waiting) {
            waiting.add(new Waiting(message, Vertx.currentContext()));
        }
        drain();
    }

    /** Starts what fits; one thread at a time, and a start that ends at once only makes it look again. */
    private void drain() {
        if (draining.getAndIncrement() != 0) {
            return;
        }
        do {
            for (Waiting next; (next = nextThatFits()) != null; ) {
                start(next);
            }
        } while (draining.decrementAndGet() != 0);
    }

    private Waiting nextThatFits() {
        synchronized (waiting) {
            Waiting head = waiting.peek();
            if (head == null || running >= atOnce || !bytes.take(size(head.message()))) {
                return null;
            }
            running++;
            return waiting.poll();
        }
    }

    private void start(Waiting next) {
        Message<byte[]> message = next.message();
        Context context = ownContext(next.arrivedOn());
        Uni<Void> handled = Uni.createFrom().deferred(() -> handler.apply(message));
        // Already on it (the connector's emit, the usual case): no hop through the event loop's task queue.
        boolean hop = Vertx.currentContext() != context;
        (hop ? handled.runSubscriptionOn(task -> context.runOnContext(ignored -> task.run())) : handled)
                .subscribe().with(settled -> finished(message), failure -> {
                    // The handler settles every message it is given; whatever escapes it is a bug, not a reason to stop.
                    LOG.errorf("Channel %s: a message escaped its handler, requeueing it: %s", channel, failure.toString());
                    try {
                        message.nack(failure);
                    } catch (RuntimeException nackFailed) {
                        LOG.errorf("Channel %s: could not requeue it either (the broker redelivers it once the channel closes): %s",
                                channel, nackFailed.toString());
                    } finally {
                        finished(message);
                    }
                });
    }

    /**
     * The connector emits each message on a duplicated context of its own; otherwise one is made, so no two messages
     * share locals (the request scope, the trace) and none runs off Vert.x.
     */
    private Context ownContext(Context arrivedOn) {
        if (arrivedOn != null && VertxContext.isDuplicatedContext(arrivedOn)) {
            return arrivedOn;
        }
        return VertxContext.createNewDuplicatedContext(arrivedOn != null ? arrivedOn : vertx.getOrCreateContext());
    }

    private void finished(Message<byte[]> message) {
        synchronized (waiting) {
            running--;
        }
        bytes.release(size(message));
    }

    private static long size(Message<byte[]> message) {
        byte[] payload = message.getPayload();
        return payload == null ? 0 : payload.length;
    }

    @Override
    public void onError(Throwable failure) {
        LOG.errorf("The stream of channel %s failed; this consumer stops: %s", channel, failure.toString());
        streams.ended(channel, "failed: " + failure);
    }

    @Override
    public void onComplete() {
        LOG.warnf("The stream of channel %s completed; this consumer stops", channel);
        streams.ended(channel, "completed");
    }
}
