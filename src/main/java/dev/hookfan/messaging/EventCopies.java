package dev.hookfan.messaging;

import com.rabbitmq.client.AMQP;
import dev.hookfan.text.Truncate;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.rabbitmq.IncomingRabbitMQMetadata;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.HashMap;
import java.util.Map;

/** Republishes a consumed message, confirmed, persistent and mandatory, to a retry tier or to the DLQ. */
@Singleton
public class EventCopies {

    static final String ATTEMPT_HEADER = "hookfan-attempt";
    static final String ATTEMPTS_HEADER = "hookfan-attempts";
    static final String ERROR_HEADER = "hookfan-error";
    static final int MAX_ERROR_LENGTH = 1000;

    private final MandatoryPublisher publisher;
    private final BrokerTopology topology;

    EventCopies(MandatoryPublisher publisher, BrokerTopology topology) {
        this.publisher = publisher;
        this.topology = topology;
    }

    /** Completes once the broker confirmed the copy into the tier's queue; only then may the original be acked. */
    public Uni<Void> toRetryTier(byte[] body, IncomingRabbitMQMetadata original, int attemptsSoFar, Duration pause) {
        Map<String, Object> headers = copyableHeaders(original);
        headers.put(ATTEMPT_HEADER, attemptsSoFar);
        return send(body, original, topology.tierQueue(pause), headers);
    }

    public Uni<Void> toDeadLetterQueue(byte[] body, IncomingRabbitMQMetadata original, int attempts, String error) {
        Map<String, Object> headers = copyableHeaders(original);
        headers.remove(ATTEMPT_HEADER);
        headers.put(ATTEMPTS_HEADER, attempts);
        headers.put(ERROR_HEADER, Truncate.toLength(error == null ? "unknown error" : error, MAX_ERROR_LENGTH));
        headers.put(RabbitDeadLetterQueue.DEAD_LETTERED_AT_HEADER, java.time.Instant.now().toString());
        return send(body, original, topology.deadLetterQueue(), headers);
    }

    private Uni<Void> send(byte[] body, IncomingRabbitMQMetadata original, String queue, Map<String, Object> headers) {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder()
                .deliveryMode(2)
                .headers(headers)
                .contentType(original.getContentType().orElse("application/json"))
                .contentEncoding(original.getContentEncoding().orElse(null))
                .messageId(original.getMessageId().orElse(null))
                .correlationId(original.getCorrelationId().orElse(null))
                .type(original.getType().orElse(null))
                .appId(original.getAppId().orElse(null))
                .timestamp(original.getTimestamp(ZoneOffset.UTC).map(time -> Date.from(time.toInstant())).orElse(null))
                .build();
        return publisher.publish(queue, properties, body);
    }

    private static Map<String, Object> copyableHeaders(IncomingRabbitMQMetadata original) {
        Map<String, Object> headers = new HashMap<>();
        // x-death and friends belong to the broker; it adds them again where they apply.
        original.getHeaders().forEach((name, value) -> {
            if (!name.startsWith("x-") && !name.equals(MandatoryPublisher.SEQUENCE_HEADER)) {
                headers.put(name, value instanceof CharSequence ? value.toString() : value);
            }
        });
        return headers;
    }
}
