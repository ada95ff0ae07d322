package dev.hookfan.sending;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.tracing.TracingPolicy;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The HTTP exchange with a subscriber: one POST to the address that was vetted (the Host header and TLS SNI still
 * come from the URL), and at most {@link #READ_LIMIT} bytes of its answer read, of which the first
 * {@link AttemptOutcome#MAX_BODY} are kept. A subscriber cannot make a send hold more memory than that.
 */
final class SubscriberClient {

    /** Past this the answer is not read on: the connection is closed and the status stands. */
    static final int READ_LIMIT = 64 * 1024;

    /** What the subscriber answered: the status, the start of the body (null when empty) and any Retry-After. */
    record Answer(int status, String body, String retryAfter) {
    }

    private final HttpClient client;

    SubscriberClient(Vertx vertx, int maxPoolSize, Duration connectTimeout) {
        // Connections are pooled per host and port, which many webhooks can share: the send permits cap each webhook.
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setMaxPoolSize(maxPoolSize)
                // Hookfan records the POST's span itself, under the attempt's trace (see DeliverySender).
                .setTracingPolicy(TracingPolicy.IGNORE)
                .setConnectTimeout((int) connectTimeout.toMillis()));
    }

    /**
     * Answers once the whole answer is read, or its first READ_LIMIT bytes; fails if there is none. A caller that
     * gives up first (its own timeout) resets the request, which closes the connection rather than read on.
     */
    Uni<Answer> post(String url, InetAddress address, int port, MultiMap headers, byte[] body, Duration idleTimeout) {
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setAbsoluteURI(url)
                .setServer(SocketAddress.inetSocketAddress(port, address.getHostAddress()))
                .setHeaders(headers)
                .setIdleTimeout(idleTimeout.toMillis());
        return Uni.createFrom().emitter(emitter -> {
            AtomicBoolean answered = new AtomicBoolean();
            AtomicReference<HttpClientRequest> sent = new AtomicReference<>();
            emitter.onTermination(() -> {
                HttpClientRequest request = sent.get();
                if (request != null && answered.compareAndSet(false, true)) {
                    request.reset();
                }
            });
            client.request(options)
                    .compose(request -> {
                        sent.set(request);
                        return request.send(Buffer.buffer(body));
                    })
                    .onComplete(response -> {
                        if (response.failed()) {
                            if (answered.compareAndSet(false, true)) {
                                emitter.fail(response.cause());
                            }
                        } else {
                            read(response.result(), emitter, answered);
                        }
                    });
        });
    }

    private static void read(HttpClientResponse response, UniEmitter<? super Answer> emitter, AtomicBoolean answered) {
        Buffer kept = Buffer.buffer();
        long[] read = {0};
        response.exceptionHandler(failure -> {
            if (answered.compareAndSet(false, true)) {
                emitter.fail(failure);
            }
        });
        response.handler(chunk -> {
            read[0] += chunk.length();
            int room = AttemptOutcome.MAX_BODY - kept.length();
            if (room > 0) {
                kept.appendBuffer(chunk, 0, Math.min(room, chunk.length()));
            }
            if (read[0] > READ_LIMIT && answered.compareAndSet(false, true)) {
                emitter.complete(answer(response, kept));
                // HTTP/1.1 has no way to skip the rest of a body: closing the connection is the way out.
                response.request().reset();
            }
        });
        response.endHandler(done -> {
            if (answered.compareAndSet(false, true)) {
                emitter.complete(answer(response, kept));
            }
        });
    }

    private static Answer answer(HttpClientResponse response, Buffer kept) {
        // PostgreSQL text cannot hold NUL, and a binary answer must not make the attempt unrecordable.
        String body = kept.length() == 0 ? null : kept.toString(StandardCharsets.UTF_8).replace('\u0000', '\uFFFD');
        return new Answer(response.statusCode(), body, response.getHeader("retry-after"));
    }

    void close() {
        client.close();
    }
}
