package dev.hookfan.bench;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Subscribers of the send-shape phases: each path's first segment names a group ("/fast/…", "/slow/…"), which
 * answers 200 after that group's delay. Counts POSTs and keeps publish → POST latencies per group.
 */
final class ShapedReceiver implements AutoCloseable {

    /** One group's POSTs: how many, the first and last arrival, and publish → POST latencies in µs. */
    static final class Group {
        final AtomicLong posts = new AtomicLong();
        final AtomicLong firstMicros = new AtomicLong();
        final AtomicLong lastMicros = new AtomicLong();
        final List<Long> latencies = new CopyOnWriteArrayList<>();
    }

    private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    private final HttpServer server;
    private final Map<String, Long> delays;
    private final Map<String, Group> groups = new ConcurrentHashMap<>();

    ShapedReceiver(Map<String, Long> delaysMillis) throws Exception {
        this.delays = delaysMillis;
        server = vertx.createHttpServer()
                .requestHandler(request -> request.body().onSuccess(body -> {
                    long now = Clock.micros();
                    String path = request.path();
                    String name = path.length() > 1 ? path.substring(1).split("/")[0] : "";
                    Group group = group(name);
                    group.firstMicros.compareAndSet(0, now);
                    group.lastMicros.set(now);
                    group.posts.incrementAndGet();
                    long sent = Receiver.publishedAt(body.toString());
                    if (sent > 0) {
                        group.latencies.add(now - sent);
                    }
                    long delay = delays.getOrDefault(name, 0L);
                    if (delay > 0) {
                        vertx.setTimer(delay, id -> request.response().setStatusCode(200).end());
                    } else {
                        request.response().setStatusCode(200).end();
                    }
                }))
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.actualPort() + path;
    }

    Group group(String name) {
        return groups.computeIfAbsent(name, n -> new Group());
    }

    void reset() {
        groups.clear();
    }

    @Override
    public void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
