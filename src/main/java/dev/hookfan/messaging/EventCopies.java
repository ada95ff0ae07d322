package dev.hookfan.messaging;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.rabbitmq.IncomingRabbitMQMetadata;
import io.smallrye.reactive.messaging.rabbitmq.OutgoingRabbitMQMetadata;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** Republishes a consumed message, confirmed and persistent, to a retry tier or to the DLQ. */
@Singleton
public class EventCopies {

    static final String ATTEMPT_HEADER = "hookfan-attempt";
    static final String ATTEMPTS_HEADER = "hookfan-attempts";
    static final String ERROR_HEADER = "hookfan-error";
    static final int MAX_ERROR_LENGTH = 1000;
    /** How long to wait for a publisher confirm before treating the publish as failed. */
    static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(10);

    private final MutinyEmitter<byte[]> emitter;
    private final BrokerTopology topology;

    EventCopies(@Channel("integration-event-retries") MutinyEmitter<byte[]> emitter, BrokerTopology topology) {
        this.emitter = emitter;
        this.topology = topology;
    }

    /** Completes once the broker confirmed the copy; only then may the original be acked. */
    public Uni<Void> toRetryTier(byte[] body, IncomingRabbitMQMetadata original, int attemptsSoFar, Duration pause) {
        Map<String, Object> headers = copyableHeaders(original);
        headers.put(ATTEMPT_HEADER, attemptsSoFar);
        return send(body, original, topology.tierQueue(pause), headers);
    }

    public Uni<Void> toDeadLetterQueue(byte[] body, IncomingRabbitMQMetadata original, int attempts, String error) {
        Map<String, Object> headers = copyableHeaders(original);
        headers.remove(ATTEMPT_HEADER);
        headers.put(ATTEMPTS_HEADER, attempts);
        headers.put(ERROR_HEADER, truncate(error));
        return send(body, original, topology.deadLetterQueue(), headers);
    }

    private Uni<Void> send(byte[] body, IncomingRabbitMQMetadata original, String queue, Map<String, Object> headers) {
        OutgoingRabbitMQMetadata.Builder metadata = OutgoingRabbitMQMetadata.builder()
                .withRoutingKey(queue)
                .withDeliveryMode(2)
                .withHeaders(headers)
                .withContentType(original.getContentType().orElse("application/json"));
        original.getMessageId().ifPresent(metadata::withMessageId);
        original.getContentEncoding().ifPresent(metadata::withContentEncoding);
        original.getCorrelationId().ifPresent(metadata::withCorrelationId);
        original.getType().ifPresent(metadata::withType);
        original.getAppId().ifPresent(metadata::withAppId);
        original.getTimestamp(java.time.ZoneOffset.UTC).ifPresent(metadata::withTimestamp);
        return emitter.sendMessage(Message.of(body, Metadata.of(metadata.build())))
                // A confirm lost with its connection never arrives: fail, so the original is requeued, not stuck.
                .ifNoItem().after(CONFIRM_TIMEOUT).failWith(() -> new IllegalStateException(
                        "no publisher confirm for the copy to " + queue + " within " + CONFIRM_TIMEOUT));
    }

    private static Map<String, Object> copyableHeaders(IncomingRabbitMQMetadata original) {
        Map<String, Object> headers = new HashMap<>();
        // x-death and friends belong to the broker; it adds them again where they apply.
        original.getHeaders().forEach((name, value) -> {
            if (!name.startsWith("x-")) {
                headers.put(name, value instanceof CharSequence ? value.toString() : value);
            }
        });
        return headers;
    }

    private static String truncate(String error) {
        String text = error == null ? "unknown error" : error;
        return text.length() <= MAX_ERROR_LENGTH ? text : text.substring(0, MAX_ERROR_LENGTH - 1) + "…";
    }
}
