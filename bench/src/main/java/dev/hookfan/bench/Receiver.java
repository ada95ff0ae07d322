package dev.hookfan.bench;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** The subscriber: answers 200 at once, counts POSTs and, when asked, records publish→POST latencies. */
final class Receiver implements AutoCloseable {

    private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    private final HttpServer server;
    private final AtomicLong posts = new AtomicLong();
    private final AtomicLong lastPostMicros = new AtomicLong();
    private volatile long[] latencies = new long[0];
    private final AtomicInteger recorded = new AtomicInteger();

    Receiver(int port) throws Exception {
        server = vertx.createHttpServer()
                .requestHandler(request -> request.body().onSuccess(body -> {
                    long now = Clock.micros();
                    posts.incrementAndGet();
                    lastPostMicros.set(now);
                    long[] sink = latencies;
                    if (sink.length > 0) {
                        long sent = publishedAt(body.toString());
                        int slot = recorded.getAndIncrement();
                        if (sent > 0 && slot < sink.length) {
                            sink[slot] = now - sent;
                        }
                    }
                    request.response().setStatusCode(200).end();
                }))
                .listen(port, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.actualPort() + path;
    }

    long posts() {
        return posts.get();
    }

    long lastPostMicros() {
        return lastPostMicros.get();
    }

    /** From now on, keeps the latency of up to this many POSTs whose event carries a publish time. */
    void recordLatencies(int capacity) {
        recorded.set(0);
        latencies = new long[capacity];
    }

    /** The latencies recorded so far, in microseconds; stops recording. */
    long[] latencies() {
        long[] sink = latencies;
        latencies = new long[0];
        return java.util.Arrays.copyOf(sink, Math.min(recorded.get(), sink.length));
    }

    /** The event's data carries "t": its publish time in epoch microseconds. */
    static long publishedAt(String payload) {
        int at = payload.indexOf("\"t\":");
        if (at < 0) {
            return -1;
        }
        int from = at + 4;
        int to = from;
        while (to < payload.length() && Character.isDigit(payload.charAt(to))) {
            to++;
        }
        return to > from ? Long.parseLong(payload, from, to, 10) : -1;
    }

    @Override
    public void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
