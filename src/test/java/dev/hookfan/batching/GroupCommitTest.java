package dev.hookfan.batching;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class GroupCommitTest {

    /** A writer that holds every batch until the test lets it go, and answers each item upper-cased. */
    static final class HeldWriter {
        final List<List<String>> batches = new CopyOnWriteArrayList<>();
        final List<UniEmitter<? super List<String>>> held = new CopyOnWriteArrayList<>();

        Uni<List<String>> write(List<String> batch) {
            batches.add(batch);
            return Uni.createFrom().emitter(held::add);
        }

        void release(int index) {
            List<String> batch = batches.get(index);
            if (batch.contains("bad")) {
                held.get(index).fail(new IllegalArgumentException("bad item"));
            } else {
                held.get(index).complete(batch.stream().map(String::toUpperCase).toList());
            }
        }
    }

    @Test
    void should_write_what_is_submitted_while_a_batch_runs_in_one_next_batch() {
        HeldWriter writer = new HeldWriter();
        GroupCommit<String, String> group = new GroupCommit<>("test", 10, 1, writer::write);

        CompletableFuture<String> a = group.submit("a").subscribeAsCompletionStage();
        CompletableFuture<String> b = group.submit("b").subscribeAsCompletionStage();
        CompletableFuture<String> c = group.submit("c").subscribeAsCompletionStage();
        assertEquals(List.of(List.of("a")), writer.batches);

        writer.release(0);
        assertEquals("A", a.join());
        assertEquals(List.of(List.of("a"), List.of("b", "c")), writer.batches);
        writer.release(1);
        assertEquals("B", b.join());
        assertEquals("C", c.join());
    }

    @Test
    void should_cap_batches_at_their_size_and_run_no_more_than_allowed_at_once() {
        HeldWriter writer = new HeldWriter();
        GroupCommit<String, String> group = new GroupCommit<>("test", 2, 2, writer::write);

        List<CompletableFuture<String>> results = new ArrayList<>();
        for (String item : List.of("a", "b", "c", "d", "e", "f")) {
            results.add(group.submit(item).subscribeAsCompletionStage());
        }
        // "a" and "b" each started a batch alone; the rest wait for a free slot.
        assertEquals(List.of(List.of("a"), List.of("b")), writer.batches);
        writer.release(0);
        assertEquals(List.of(List.of("a"), List.of("b"), List.of("c", "d")), writer.batches);
        writer.release(1);
        writer.release(2);
        writer.release(3);
        assertEquals(List.of(List.of("a"), List.of("b"), List.of("c", "d"), List.of("e", "f")), writer.batches);
        assertEquals(List.of("A", "B", "C", "D", "E", "F"), results.stream().map(CompletableFuture::join).toList());
    }

    @Test
    void should_write_each_item_alone_when_its_batch_fails_so_only_the_bad_one_fails() {
        HeldWriter writer = new HeldWriter();
        GroupCommit<String, String> group = new GroupCommit<>("test", 10, 1, writer::write);

        CompletableFuture<String> first = group.submit("first").subscribeAsCompletionStage();
        CompletableFuture<String> x = group.submit("x").subscribeAsCompletionStage();
        CompletableFuture<String> bad = group.submit("bad").subscribeAsCompletionStage();
        CompletableFuture<String> y = group.submit("y").subscribeAsCompletionStage();
        writer.release(0);
        assertEquals(List.of("x", "bad", "y"), writer.batches.get(1));
        writer.release(1);

        assertEquals(List.of(List.of("x"), List.of("bad"), List.of("y")), writer.batches.subList(2, 5));
        writer.release(2);
        writer.release(3);
        writer.release(4);
        assertEquals("FIRST", first.join());
        assertEquals("X", x.join());
        assertEquals("Y", y.join());
        assertThrows(Exception.class, bad::join);
    }

    @Test
    void should_fail_a_batch_whose_writer_answers_the_wrong_number_of_results() {
        GroupCommit<String, String> group = new GroupCommit<>("test", 10, 1, batch -> Uni.createFrom().item(List.of()));
        assertThrows(Exception.class, () -> group.submit("a").await().atMost(Duration.ofSeconds(5)));
    }

    @Test
    void should_complete_each_submitter_on_its_own_vertx_context() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            HeldWriter writer = new HeldWriter();
            GroupCommit<String, String> group = new GroupCommit<>("test", 10, 1, writer::write);
            Context first = vertx.getOrCreateContext();
            Context second = vertx.getOrCreateContext();
            CompletableFuture<Context> firstDone = new CompletableFuture<>();
            CompletableFuture<Context> secondDone = new CompletableFuture<>();

            first.runOnContext(ignored -> group.submit("a").subscribe().with(done -> firstDone.complete(Vertx.currentContext())));
            await(() -> writer.batches.size() == 1);
            second.runOnContext(ignored -> group.submit("b").subscribe().with(done -> secondDone.complete(Vertx.currentContext())));
            Thread.sleep(100);
            // The first batch's answer arrives on the first context, which then writes the second batch.
            first.runOnContext(ignored -> writer.release(0));
            await(() -> writer.batches.size() == 2);
            first.runOnContext(ignored -> writer.release(1));

            assertSame(first, firstDone.get(5, TimeUnit.SECONDS));
            assertSame(second, secondDone.get(5, TimeUnit.SECONDS));
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        }
    }

    private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 5 s");
            }
            Thread.sleep(10);
        }
    }
}
