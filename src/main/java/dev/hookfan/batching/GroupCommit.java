package dev.hookfan.batching;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Group commit: a few batches are written at a time, and every item submitted while they run goes into the next
 * one. Alone, an item is written at once; under load, many share a statement, a round trip and a commit. Each
 * submitter completes only when its own item is written, on its own Vert.x context. A batch that fails is written
 * again item by item, so one bad item fails alone and never takes the others of its batch with it.
 *
 * @param <I> what is submitted
 * @param <O> what each submitter gets back once its item is written
 */
public final class GroupCommit<I, O> {

    private static final Logger LOG = Logger.getLogger(GroupCommit.class);

    private record Pending<I, O>(I item, UniEmitter<? super O> done, Context context) {
    }

    private final String name;
    private final int maxBatch;
    private final int maxBatchesInFlight;
    private final Function<List<I>, Uni<List<O>>> writer;
    private final Queue<Pending<I, O>> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();

    /**
     * @param writer writes a batch and answers one result per item, in the batch's order
     */
    public GroupCommit(String name, int maxBatch, int maxBatchesInFlight, Function<List<I>, Uni<List<O>>> writer) {
        if (maxBatch < 1 || maxBatchesInFlight < 1) {
            throw new IllegalArgumentException("a group commit needs batches of at least 1 and at least 1 in flight");
        }
        this.name = name;
        this.maxBatch = maxBatch;
        this.maxBatchesInFlight = maxBatchesInFlight;
        this.writer = writer;
    }

    public Uni<O> submit(I item) {
        return Uni.createFrom().emitter(done -> {
            waiting.add(new Pending<>(item, done, Vertx.currentContext()));
            writeNext();
        });
    }

    private void writeNext() {
        while (!waiting.isEmpty()) {
            int running = inFlight.get();
            if (running >= maxBatchesInFlight) {
                return;
            }
            if (!inFlight.compareAndSet(running, running + 1)) {
                continue;
            }
            List<Pending<I, O>> batch = new ArrayList<>();
            for (Pending<I, O> next; batch.size() < maxBatch && (next = waiting.poll()) != null; ) {
                batch.add(next);
            }
            if (batch.isEmpty()) {
                // Another writer took what was waiting between the check and the poll.
                inFlight.decrementAndGet();
                continue;
            }
            write(batch);
        }
    }

    private void write(List<Pending<I, O>> batch) {
        Uni.createFrom().deferred(() -> writer.apply(batch.stream().map(Pending::item).toList()))
                .invoke(results -> {
                    if (results.size() != batch.size()) {
                        throw new IllegalStateException(name + ": " + results.size() + " results for a batch of " + batch.size());
                    }
                })
                .subscribe().with(
                        results -> {
                            for (int i = 0; i < batch.size(); i++) {
                                complete(batch.get(i), results.get(i));
                            }
                            finished();
                        },
                        failure -> {
                            if (batch.size() > 1) {
                                LOG.warnf("%s: a batch of %d failed, writing each alone: %s", name, batch.size(), failure.toString());
                                batch.forEach(this::writeAlone);
                            } else {
                                fail(batch.get(0), failure);
                            }
                            finished();
                        });
    }

    private void writeAlone(Pending<I, O> pending) {
        Uni.createFrom().deferred(() -> writer.apply(List.of(pending.item()))).subscribe().with(
                results -> complete(pending, results.get(0)),
                failure -> fail(pending, failure));
    }

    private void finished() {
        inFlight.decrementAndGet();
        writeNext();
    }

    private static <I, O> void complete(Pending<I, O> pending, O result) {
        onContextOf(pending, () -> pending.done().complete(result));
    }

    private static <I, O> void fail(Pending<I, O> pending, Throwable failure) {
        onContextOf(pending, () -> pending.done().fail(failure));
    }

    private static void onContextOf(Pending<?, ?> pending, Runnable action) {
        CallerContext.run(pending.context(), action);
    }
}
