package dev.hookfan.messaging;

import dev.hookfan.events.HandlersFailedException;
import dev.hookfan.events.IntegrationEvent;
import dev.hookfan.events.IntegrationEventContext;
import dev.hookfan.events.IntegrationEventDispatcher;
import dev.hookfan.events.IntegrationEventParser;
import dev.hookfan.events.MalformedEventException;
import dev.hookfan.metrics.TaggedCounters;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.rabbitmq.IncomingRabbitMQMetadata;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * The only place that turns broker deliveries into {@link IntegrationEvent}s. Settles every message itself:
 * success acks; a failure is copied to the next retry tier (or, after the last one, to the DLQ) and the
 * original is acked only once the broker confirmed the copy.
 */
@Singleton
public class IntegrationEventConsumer {

    private static final Logger LOG = Logger.getLogger(IntegrationEventConsumer.class);
    static final int MAX_MESSAGE_ID_LENGTH = 255;
    private static final java.util.regex.Pattern TRACEPARENT =
            java.util.regex.Pattern.compile("[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");

    private final IntegrationEventContext context;
    private final IntegrationEventDispatcher dispatcher;
    private final IntegrationEventParser parser;
    private final EventCopies copies;
    private final BrokerTopology topology;
    private final MessagingConfig config;
    private final MeterRegistry metrics;
    private final TaggedCounters consumedByType;

    IntegrationEventConsumer(IntegrationEventContext context, IntegrationEventDispatcher dispatcher,
                             IntegrationEventParser parser, EventCopies copies, BrokerTopology topology,
                             MessagingConfig config, MeterRegistry metrics) {
        this.context = context;
        this.dispatcher = dispatcher;
        this.parser = parser;
        this.copies = copies;
        this.topology = topology;
        this.config = config;
        this.metrics = metrics;
        this.consumedByType = new TaggedCounters(metrics, "hookfan.events.consumed", "type");
    }

    /** Settles one message; {@link IntegrationEventStream} calls it for every message in hand, on the message's context. */
    @ActivateRequestContext
    public Uni<Void> consume(Message<byte[]> message) {
        IncomingRabbitMQMetadata metadata = message.getMetadata(IncomingRabbitMQMetadata.class).orElseThrow();
        byte[] body = message.getPayload();
        int attempt = previousAttempts(metadata) + 1;
        String messageId = metadata.getMessageId().orElse(null);
        MDC.put("messageId", String.valueOf(messageId));
        return topology.ready()
                .chain(() -> handle(body, metadata, messageId))
                .onItemOrFailure().transformToUni((handled, failure) -> failure == null
                        ? Uni.createFrom().completionStage(message.ack())
                        : settleFailure(body, metadata, attempt, failure).chain(() -> Uni.createFrom().completionStage(message.ack())))
                .onFailure().recoverWithUni(copyFailed -> {
                    // The copy was not confirmed: hand the original back rather than lose it.
                    LOG.errorf("Could not park message %s for retry, requeueing it: %s", messageId, copyFailed.toString());
                    return Uni.createFrom().completionStage(message.nack(copyFailed));
                })
                .eventually(() -> MDC.remove("messageId"));
    }

    private Uni<Integer> handle(byte[] body, IncomingRabbitMQMetadata metadata, String messageId) {
        if (body.length > config.maxMessageSize().asLongValue()) {
            return Uni.createFrom().failure(new MalformedEventException(
                    "message of " + body.length + " bytes exceeds hookfan.messaging.max-message-size (" + config.maxMessageSize().asLongValue() + " bytes)"));
        }
        if (messageId == null || messageId.isBlank()) {
            return Uni.createFrom().failure(new MalformedEventException(
                    "message has no message_id property: without one no handler can be idempotent"));
        }
        if (messageId.length() > MAX_MESSAGE_ID_LENGTH) {
            return Uni.createFrom().failure(new MalformedEventException(
                    "message_id is longer than " + MAX_MESSAGE_ID_LENGTH + " characters"));
        }
        IntegrationEvent event;
        try {
            event = parser.parse(body);
        } catch (MalformedEventException e) {
            return Uni.createFrom().failure(e);
        }
        context.enter(messageId, traceparent(metadata));
        consumedByType.increment(event.type());
        return dispatcher.dispatch(event);
    }

    private Uni<Void> settleFailure(byte[] body, IncomingRabbitMQMetadata metadata, int attempt, Throwable failure) {
        String messageId = metadata.getMessageId().orElse("(none)");
        if (isPermanent(failure)) {
            LOG.warnf("Dead-lettering malformed message %s: %s", messageId, failure.getMessage());
            metrics.counter("hookfan.events.dead_lettered", "reason", "malformed").increment();
            return copies.toDeadLetterQueue(body, metadata, attempt, "malformed: " + failure.getMessage());
        }
        RetrySchedule schedule = topology.schedule();
        if (schedule.allowsRetryAfter(attempt)) {
            LOG.infof("Message %s failed attempt %d, retrying in %s", messageId, attempt, schedule.pauseAfter(attempt));
            metrics.counter("hookfan.events.retried", "attempt", Integer.toString(attempt)).increment();
            return copies.toRetryTier(body, metadata, attempt, schedule.pauseAfter(attempt));
        }
        LOG.warnf("Dead-lettering message %s after %d attempts: %s", messageId, attempt, failure.getMessage());
        metrics.counter("hookfan.events.dead_lettered", "reason", "retries_exhausted").increment();
        return copies.toDeadLetterQueue(body, metadata, attempt, failure.getMessage());
    }

    /** Retrying cannot fix a message the contract rejects, whether the parser or a handler found it out. */
    private static boolean isPermanent(Throwable failure) {
        return failure instanceof MalformedEventException
                || failure instanceof HandlersFailedException failed
                && failed.failures().stream().allMatch(handler -> handler.cause() instanceof MalformedEventException);
    }

    /** A W3C traceparent is passed on; anything else in that header is dropped, never fatal. */
    private static String traceparent(IncomingRabbitMQMetadata metadata) {
        Object value = metadata.getHeaders().get("traceparent");
        return value != null && TRACEPARENT.matcher(value.toString()).matches() ? value.toString() : null;
    }

    private static int previousAttempts(IncomingRabbitMQMetadata metadata) {
        Object value = metadata.getHeaders().get(EventCopies.ATTEMPT_HEADER);
        if (value instanceof Number number) {
            return Math.max(0, number.intValue());
        }
        if (value != null) {
            try {
                return Math.max(0, Integer.parseInt(value.toString().trim()));
            } catch (NumberFormatException ignored) {
                return 0;
            }
        }
        return 0;
    }
}
