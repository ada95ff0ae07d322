package dev.hookfan.support;

import dev.hookfan.events.IntegrationEvent;
import dev.hookfan.events.IntegrationEventContext;
import dev.hookfan.events.IntegrationEventHandler;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.inject.Inject;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs one handler as the consumer would: on a fresh duplicated Vert.x context, in a request scope with a message id. */
@ApplicationScoped
public class Dispatch {

    @Inject
    Vertx vertx;

    @Inject
    IntegrationEventContext context;

    public CompletableFuture<Void> start(IntegrationEventHandler handler, String messageId, IntegrationEvent event) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        var duplicated = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
        io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle.setContextSafe(duplicated, true);
        duplicated.runOnContext(ignored -> inScope(handler, messageId, event)
                .subscribe().with(done::complete, done::completeExceptionally));
        return done;
    }

    public void run(IntegrationEventHandler handler, String messageId, IntegrationEvent event) {
        try {
            start(handler, messageId, event).get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @ActivateRequestContext
    Uni<Void> inScope(IntegrationEventHandler handler, String messageId, IntegrationEvent event) {
        if (messageId != null) {
            context.enter(messageId, null);
        }
        return handler.handle(event);
    }
}
