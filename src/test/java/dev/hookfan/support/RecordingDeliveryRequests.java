package dev.hookfan.support;

import dev.hookfan.deliveries.DeliveryRequests;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.decorator.Decorator;
import jakarta.decorator.Delegate;
import jakarta.inject.Inject;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Test-only decorator: records what was requested, then publishes for real. */
@Decorator
@Priority(10)
public class RecordingDeliveryRequests implements DeliveryRequests {

    public static final List<String> REQUESTED = new CopyOnWriteArrayList<>();

    @Inject
    @Delegate
    DeliveryRequests delegate;

    @Override
    public Uni<Void> request(List<String> deliveryIds) {
        REQUESTED.addAll(deliveryIds);
        return delegate.request(deliveryIds);
    }
}
