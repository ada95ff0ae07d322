package dev.hookfan.messaging;

import dev.hookfan.sending.SendingInstances;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;

import java.util.concurrent.atomic.AtomicInteger;

/** Counts the sending instances as the consumers of the deliveries queue (each sending instance has one). */
@Singleton
public class RabbitSendingInstances implements SendingInstances {

    private final BrokerTopology topology;
    /** A rate split by instances follows a scale-out within this long. */
    static final String REFRESH_INTERVAL = "30s";

    private final AtomicInteger count = new AtomicInteger(1);

    RabbitSendingInstances(BrokerTopology topology) {
        this.topology = topology;
    }

    @Override
    public int count() {
        return count.get();
    }

    @Scheduled(every = REFRESH_INTERVAL, delay = 2, concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> refresh() {
        return topology.deliveriesConsumers()
                .invoke(consumers -> count.set(Math.max(1, consumers)))
                // Unknown for now: the last count stands.
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }
}
