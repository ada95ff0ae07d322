package dev.hookfan.messaging;

import dev.hookfan.events.HandlersFailedException;
import dev.hookfan.events.IntegrationEvent;
import dev.hookfan.events.IntegrationEventContext;
import dev.hookfan.events.IntegrationEventDispatcher;
import dev.hookfan.events.IntegrationEventParser;
import dev.hookfan.events.MalformedEventException;
import dev.hookfan.metrics.MetricsConfig;
import dev.hookfan.metrics.TaggedCounters;
import dev.hookfan.tracing.Tracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.rabbitmq.IncomingRabbitMQMetadata;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The only place that turns broker deliveries into {@link IntegrationEvent}s. Settles every message itself:
 * success acks; a failure is copied to the next retry tier (or, after the last one, to the DLQ) and the
 * original is acked only once the broker confirmed the copy.
 */
@Singleton
public class IntegrationEventConsumer {

    private static final Logger LOG = Logger.getLogger(IntegrationEventConsumer.class);
    static final int MAX_MESSAGE_ID_LENGTH = 255;
    static final Duration HAND_BACK_PAUSE = Duration.ofSeconds(1);
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
    private final Tracing tracing;

    IntegrationEventConsumer(IntegrationEventContext context, IntegrationEventDispatcher dispatcher,
                             IntegrationEventParser parser, EventCopies copies, BrokerTopology topology,
                             MessagingConfig config, MeterRegistry metrics, MetricsConfig metricsConfig, Tracing tracing) {
        this.tracing = tracing;
        this.context = context;
        this.dispatcher = dispatcher;
        this.parser = parser;
        this.copies = copies;
        this.topology = topology;
        this.config = config;
        this.metrics = metrics;
        this.consumedByType = new TaggedCounters(metrics, "hookfan.events.consumed", "type", metricsConfig.maxEventTypes());
    }

    /** Settles one message; {@link IntegrationEventStream} calls it for every message in hand, on the message's context. */
    @ActivateRequestContext
    public Uni<Void> consume(Message<byte[]> message) {
        IncomingRabbitMQMetadata metadata = message.getMetadata(IncomingRabbitMQMetadata.class).orElseThrow();
        byte[] body = message.getPayload();
        int attempt = previousAttempts(metadata) + 1;
        String messageId = metadata.getMessageId().orElse(null);
        MDC.put("messageId", printable(messageId));
        // Current on the message's own Vert.x context until it is settled: its statements and handlers are its children.
        Span span = tracing.on() ? processing(metadata, messageId, attempt) : Span.getInvalid();
        Scope current = tracing.on() ? span.makeCurrent() : Scope.noop();
        return topology.ready()
                .chain(() -> handle(body, metadata, messageId, span))
                .onItemOrFailure().transformToUni((handled, failure) -> {
                    if (failure == null) {
                        return Uni.createFrom().completionStage(message.ack());
                    }
                    Tracing.failed(span, failure);
                    return park(body, metadata, attempt, failure).chain(() -> Uni.createFrom().completionStage(message.ack()));
                })
                .onFailure().recoverWithUni(copyFailed -> handBack(message, messageId, copyFailed))
                .eventually(() -> {
                    current.close();
                    span.end();
                    MDC.remove("messageId");
                });
    }

    private Span processing(IncomingRabbitMQMetadata metadata, String messageId, int attempt) {
        return MessagingSpans.process(tracing, config.queue(), tracing.extract(metadata.getHeaders()))
                .setAttribute("messaging.message.id", printable(messageId))
                .setAttribute("hookfan.attempt", attempt)
                .startSpan();
    }

    /** Retry tier or DLQ; whatever goes wrong before a copy is published ends in the DLQ, never in a requeue loop. */
    private Uni<Void> park(byte[] body, IncomingRabbitMQMetadata metadata, int attempt, Throwable failure) {
        return Uni.createFrom().deferred(() -> settleFailure(body, metadata, attempt, failure))
                .onFailure(parkFailed -> !(parkFailed instanceof MandatoryPublisher.CopyRefusedException
                        || parkFailed instanceof java.util.concurrent.TimeoutException))
                .recoverWithUni(parkFailed -> {
                    LOG.errorf("Could not park message %s for retry, dead-lettering it: %s", printable(metadata.getMessageId().orElse(null)), parkFailed.toString());
                    metrics.counter("hookfan.events.dead_lettered", "reason", "park_failed").increment();
                    return copies.toDeadLetterQueue(body, metadata, attempt, "could not be parked for retry: " + parkFailed
                            + " (after: " + failure.getMessage() + ")");
                });
    }

    /** The copy was not confirmed into a queue: hand the original back rather than lose it, after a pause so a broker that keeps refusing is not hammered. */
    private Uni<Void> handBack(Message<byte[]> message, String messageId, Throwable copyFailed) {
        LOG.errorf("Could not park message %s for retry, requeueing it: %s", printable(messageId), copyFailed.toString());
        metrics.counter("hookfan.events.handed_back").increment();
        Uni<Void> pause = Uni.createFrom().voidItem().onItem().delayIt().by(HAND_BACK_PAUSE);
        io.vertx.mutiny.core.Context caller = io.vertx.mutiny.core.Vertx.currentContext();
        return (caller == null ? pause : pause.emitOn(caller::runOnContext))
                .chain(() -> Uni.createFrom().completionStage(message.nack(copyFailed)));
    }

    private Uni<Integer> handle(byte[] body, IncomingRabbitMQMetadata metadata, String messageId, Span span) {
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
        if (IntegrationEventParser.hasControlCharacter(messageId)) {
            return Uni.createFrom().failure(new MalformedEventException(
                    "message_id must not contain control characters (U+0000-U+001F, U+007F)"));
        }
        IntegrationEvent event;
        try {
            event = parser.parse(body);
        } catch (MalformedEventException e) {
            return Uni.createFrom().failure(e);
        }
        // Retries and the sender continue this message's trace: its own span when traced, else the publisher's context.
        String traceparent = Tracing.traceparent(span);
        context.enter(messageId, traceparent != null ? traceparent : traceparent(metadata));
        consumedByType.increment(event.type());
        return dispatcher.dispatch(event);
    }

    private Uni<Void> settleFailure(byte[] body, IncomingRabbitMQMetadata metadata, int attempt, Throwable failure) {
        String messageId = printable(metadata.getMessageId().orElse("(none)"));
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

    /**
     * Hookfan's own count, trusted only on a copy that came back from one of its retry tiers (the broker adds an
     * x-death entry naming the tier), and never beyond the schedule: a publisher's header is no count of ours.
     */
    private int previousAttempts(IncomingRabbitMQMetadata metadata) {
        Map<String, Object> headers = metadata.getHeaders();
        if (!cameBackFromATier(headers.get("x-death"))) {
            return 0;
        }
        Object value = headers.get(EventCopies.ATTEMPT_HEADER);
        long attempts;
        if (value instanceof Number number) {
            attempts = number.longValue();
        } else {
            try {
                attempts = value == null ? 0 : Long.parseLong(value.toString().trim());
            } catch (NumberFormatException notANumber) {
                attempts = 0;
            }
        }
        return (int) Math.max(0, Math.min(attempts, topology.schedule().limit()));
    }

    private boolean cameBackFromATier(Object xDeath) {
        if (!(xDeath instanceof List<?> deaths)) {
            return false;
        }
        String tierPrefix = config.queue() + ".retry.";
        return deaths.stream().anyMatch(death -> death instanceof Map<?, ?> entry
                && entry.get("queue") != null && entry.get("queue").toString().startsWith(tierPrefix));
    }

    /** For logs: a message id is the publisher's, and a CR or LF in it would forge log lines. */
    static String printable(String value) {
        if (value == null) {
            return "null";
        }
        char[] chars = value.toCharArray();
        boolean replaced = false;
        for (int i = 0; i < chars.length; i++) {
            if (chars[i] < 0x20 || chars[i] == 0x7f) {
                chars[i] = '?';
                replaced = true;
            }
        }
        return replaced ? new String(chars) : value;
    }
}
