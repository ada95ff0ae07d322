package dev.hookfan.bench;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** An OTLP/HTTP collector that keeps nothing: answers every export at once and counts what it was sent. */
final class TraceSink implements AutoCloseable {

    private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    private final HttpServer server;
    private final AtomicLong exports = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();

    TraceSink() throws Exception {
        server = vertx.createHttpServer()
                .requestHandler(request -> request.body().onSuccess(body -> {
                    exports.incrementAndGet();
                    bytes.addAndGet(body.length());
                    request.response().setStatusCode(200).putHeader("content-type", "application/x-protobuf").end();
                }))
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    long exports() {
        return exports.get();
    }

    long bytes() {
        return bytes.get();
    }

    @Override
    public void close() {
        vertx.close();
    }
}
