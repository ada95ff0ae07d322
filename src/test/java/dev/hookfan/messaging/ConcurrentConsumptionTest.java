package dev.hookfan.messaging;

import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Flow;
import java.util.function.Function;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConcurrentConsumptionTest {

    private final List<String> handled = new CopyOnWriteArrayList<>();
    private final List<String> nacked = new CopyOnWriteArrayList<>();
    private final ConsumerStreams streams = new ConsumerStreams();
    private final ConsumerStreamsHealth health = new ConsumerStreamsHealth(streams);
    private Vertx vertx;

    @BeforeEach
    void startVertx() {
        vertx = Vertx.vertx();
    }

    @AfterEach
    void closeVertx() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    @Test
    void should_go_on_with_the_next_messages_when_one_escapes_its_handler_and_requeue_that_one() throws Exception {
        List<Context> contexts = new CopyOnWriteArrayList<>();
        Function<Message<byte[]>, Uni<Void>> handler = message -> {
            String name = new String(message.getPayload());
            contexts.add(Vertx.currentContext());
            handled.add(name);
            return switch (name) {
                case "fails" -> Uni.createFrom().failure(new IllegalStateException("escaped"));
                case "throws" -> throw new IllegalStateException("thrown");
                default -> Uni.createFrom().voidItem();
            };
        };
        // One at a time: a message that never finished would stop every message after it.
        Flow.Subscriber<Message<byte[]>> consumption = ConcurrentConsumption.of("test", 1, new BytesInHand(Long.MAX_VALUE), handler, streams, vertx);
        consumption.onSubscribe(new Flow.Subscription() {
            public void request(long n) { }
            public void cancel() { }
        });
        for (String name : List.of("fails", "throws", "fine")) {
            consumption.onNext(message(name));
        }

        await().atMost(Duration.ofSeconds(5)).until(() -> handled.size() == 3 && nacked.size() == 2);
        assertEquals(List.of("fails", "throws", "fine"), handled);
        assertEquals(List.of("fails", "throws"), nacked);
        // Sent from a thread that is not Vert.x's: each still ran on a duplicated context of its own.
        assertEquals(3, contexts.stream().filter(context -> context != null && VertxContext.isDuplicatedContext(context)).distinct().count());
        assertEquals(HealthCheckResponse.Status.UP, health.call().getStatus());
    }

    @Test
    void should_report_down_once_a_consumer_stream_has_ended() {
        Flow.Subscriber<Message<byte[]>> consumption = ConcurrentConsumption.of("test$1", 1, new BytesInHand(Long.MAX_VALUE),
                message -> Uni.createFrom().voidItem(), streams, vertx);
        assertEquals(HealthCheckResponse.Status.UP, health.call().getStatus());

        consumption.onError(new IllegalStateException("upstream failed"));

        HealthCheckResponse response = health.call();
        assertEquals(HealthCheckResponse.Status.DOWN, response.getStatus());
        assertEquals("failed: java.lang.IllegalStateException: upstream failed", response.getData().orElseThrow().get("test$1"));
    }

    @Test
    void should_handle_each_message_on_a_duplicated_context_of_its_own_when_it_arrives_on_a_shared_one() throws Exception {
        List<Context> contexts = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(3);
        Flow.Subscriber<Message<byte[]>> consumption = ConcurrentConsumption.of("test", 3, new BytesInHand(Long.MAX_VALUE),
                message -> Uni.createFrom().voidItem().invoke(() -> {
                    contexts.add(Vertx.currentContext());
                    done.countDown();
                }), streams, vertx);
        Context shared = vertx.getOrCreateContext();
        shared.runOnContext(ignored -> List.of("a", "b", "c").forEach(name -> consumption.onNext(message(name))));

        assertTrue(done.await(5, TimeUnit.SECONDS));
        assertEquals(3, contexts.stream().distinct().count(), "one context per message");
        contexts.forEach(context -> assertTrue(VertxContext.isDuplicatedContext(context), "a duplicated context"));
        contexts.forEach(context -> assertNotSame(shared, context));
    }

    private Message<byte[]> message(String name) {
        return Message.of(name.getBytes(), () -> CompletableFuture.completedFuture(null), failure -> {
            nacked.add(name);
            return CompletableFuture.completedFuture(null);
        });
    }
}
