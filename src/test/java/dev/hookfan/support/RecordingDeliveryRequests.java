package dev.hookfan.support;

import dev.hookfan.deliveries.DeliveryRequests;
import dev.hookfan.deliveries.RequestedDelivery;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.decorator.Decorator;
import jakarta.decorator.Delegate;
import jakarta.inject.Inject;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/** Test-only decorator: records what was requested, then publishes for real; can hold the confirms back. */
@Decorator
@Priority(10)
public class RecordingDeliveryRequests implements DeliveryRequests {

    public static final List<String> REQUESTED = new CopyOnWriteArrayList<>();
    /** While set, a request counts as confirmed only once this completes: a slow broker, as the fan-out sees it. */
    public static volatile CompletableFuture<Void> confirmsHeldUntil;

    @Inject
    @Delegate
    DeliveryRequests delegate;

    @Override
    public Uni<Void> request(List<RequestedDelivery> deliveries) {
        deliveries.forEach(delivery -> REQUESTED.add(delivery.id()));
        CompletableFuture<Void> held = confirmsHeldUntil;
        Uni<Void> published = delegate.request(deliveries);
        return held == null ? published : published.call(() -> Uni.createFrom().completionStage(held));
    }
}
