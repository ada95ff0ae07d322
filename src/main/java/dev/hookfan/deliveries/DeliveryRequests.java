package dev.hookfan.deliveries;

import io.smallrye.mutiny.Uni;

import java.util.List;

/** Asks the sender to send deliveries now. Implemented by the messaging adapter; the poller is the safety net. */
public interface DeliveryRequests {

    /** Completes once every request is confirmed by the broker. */
    Uni<Void> request(List<RequestedDelivery> deliveries);
}
