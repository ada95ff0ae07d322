package dev.hookfan.messaging;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/** Messages for the in-memory connector that count how the consumer settled them. */
final class Settlements {

    final AtomicInteger acked = new AtomicInteger();
    final AtomicInteger nacked = new AtomicInteger();

    Message<byte[]> message(String body, Metadata metadata) {
        return Message.of(body.getBytes(StandardCharsets.UTF_8), metadata, () -> {
            acked.incrementAndGet();
            return CompletableFuture.completedFuture(null);
        }, failure -> {
            nacked.incrementAndGet();
            return CompletableFuture.completedFuture(null);
        });
    }
}
