package dev.hookfan.support;

import dev.hookfan.events.IntegrationEvent;
import dev.hookfan.events.IntegrationEventContext;
import dev.hookfan.events.IntegrationEventHandler;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Test-only handlers on the real channel. Event types starting with "test." reach them; the event's data says
 * how often to fail ("failTimes", -1 for always), keyed by message id, so each test stays independent.
 */
public final class TestHandlers {

    private TestHandlers() {
    }

    public record Call(String messageId, long atNanos) {
    }

    static boolean isTestType(String eventType) {
        return eventType.startsWith("test.");
    }

    /** Records this call under the current message id and returns every call so far for it. */
    static List<Call> record(Map<String, List<Call>> calls, IntegrationEventContext context) {
        String messageId = context.messageId().orElse("(none)");
        List<Call> forMessage = calls.computeIfAbsent(messageId, id -> new CopyOnWriteArrayList<>());
        forMessage.add(new Call(messageId, System.nanoTime()));
        return forMessage;
    }

    /** Fails the first data.failTimes calls per message id, then succeeds. */
    @ApplicationScoped
    public static class FlakyHandler implements IntegrationEventHandler {

        public static final Map<String, List<Call>> CALLS = new ConcurrentHashMap<>();

        @Inject
        IntegrationEventContext context;

        @Override
        public boolean takes(String eventType) {
            return isTestType(eventType);
        }

        @Override
        public Uni<Void> handle(IntegrationEvent event) {
            List<Call> calls = record(CALLS, context);
            int failTimes = event.data().path("failTimes").asInt(0);
            if (failTimes < 0 || calls.size() <= failTimes) {
                return Uni.createFrom().failure(new IllegalStateException("planned failure " + calls.size()));
            }
            return Uni.createFrom().voidItem();
        }

        @Override
        public String name() {
            return "FlakyHandler";
        }
    }

    /** Holds every test.held event until {@link #releaseAll()}, noting the message id it saw: shows what is in hand at once. */
    @ApplicationScoped
    public static class HoldingHandler implements IntegrationEventHandler {

        public static final List<String> HELD = new CopyOnWriteArrayList<>();
        private static final List<Runnable> RELEASES = new CopyOnWriteArrayList<>();

        @Inject
        IntegrationEventContext context;

        /** Completes every held event on the Vert.x context it was handled on, as an I/O completion would. */
        public static void releaseAll() {
            RELEASES.forEach(Runnable::run);
            RELEASES.clear();
        }

        @Override
        public boolean takes(String eventType) {
            return "test.held".equals(eventType);
        }

        @Override
        public Uni<Void> handle(IntegrationEvent event) {
            return Uni.createFrom().emitter(held -> {
                Context handledOn = Vertx.currentContext();
                HELD.add(context.messageId().orElse("(none)"));
                RELEASES.add(() -> handledOn.runOnContext(ignored -> held.complete(null)));
            });
        }

        @Override
        public String name() {
            return "HoldingHandler";
        }
    }

    /** Always succeeds; records that it ran even when its sibling failed. */
    @ApplicationScoped
    public static class SiblingHandler implements IntegrationEventHandler {

        public static final Map<String, List<Call>> CALLS = new ConcurrentHashMap<>();

        @Inject
        IntegrationEventContext context;

        @Override
        public boolean takes(String eventType) {
            return isTestType(eventType);
        }

        @Override
        public Uni<Void> handle(IntegrationEvent event) {
            record(CALLS, context);
            return Uni.createFrom().voidItem();
        }

        @Override
        public String name() {
            return "SiblingHandler";
        }
    }

    /**
     * Two handlers that use no session, for test.meet events: each completes only once both have started for the
     * message, and fails after 2 s otherwise. Run one after another, the first fails and the message comes back.
     */
    public abstract static class MeetingHandler implements IntegrationEventHandler {

        public static final Map<String, List<String>> ARRIVED = new ConcurrentHashMap<>();
        private static final Map<String, CompletableFuture<Void>> MET = new ConcurrentHashMap<>();

        @Inject
        IntegrationEventContext context;

        @Override
        public boolean takes(String eventType) {
            return "test.meet".equals(eventType);
        }

        @Override
        public Uni<Void> handle(IntegrationEvent event) {
            String messageId = context.messageId().orElse("(none)");
            List<String> arrived = ARRIVED.computeIfAbsent(messageId, id -> new CopyOnWriteArrayList<>());
            CompletableFuture<Void> met = MET.computeIfAbsent(messageId, id -> new CompletableFuture<>());
            arrived.add(name());
            if (arrived.size() >= 2) {
                met.complete(null);
            }
            return Uni.createFrom().completionStage(met).ifNoItem().after(Duration.ofSeconds(2)).fail();
        }
    }

    @ApplicationScoped
    public static class FirstMeetingHandler extends MeetingHandler {

        @Override
        public String name() {
            return "FirstMeetingHandler";
        }
    }

    @ApplicationScoped
    public static class SecondMeetingHandler extends MeetingHandler {

        @Override
        public String name() {
            return "SecondMeetingHandler";
        }
    }
}
