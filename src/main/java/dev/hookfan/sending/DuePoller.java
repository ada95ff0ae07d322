package dev.hookfan.sending;

import dev.hookfan.deliveries.DeliveryConfig;
import dev.hookfan.deliveries.RequestedDelivery;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The safety net, once per poll interval: sweeps fan-outs whose request was lost (their rows become due), then hands
 * the scheduler the oldest due work (retries, swept rows, expired leases) of webhooks that have none waiting here.
 * It claims nothing itself, so it never claims what cannot start; and since a webhook with work waiting is left out,
 * one webhook's backlog never stands in front of the others'. That webhook brings its own back when it runs low.
 */
@Singleton
class DuePoller {

    private static final Logger LOG = Logger.getLogger(DuePoller.class);

    private final DeliverySender sender;
    private final DeliveryClaims claims;
    private final LostRequestSweep sweep;
    private final DeliveryConfig config;

    DuePoller(DeliverySender sender, DeliveryClaims claims, LostRequestSweep sweep, DeliveryConfig config) {
        this.sender = sender;
        this.claims = claims;
        this.sweep = sweep;
        this.config = config;
    }

    @Scheduled(every = "${hookfan.delivery.poll-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            delayed = "${hookfan.delivery.poll-interval}")
    Uni<Void> poll() {
        if (!config.sendingEnabled()) {
            return Uni.createFrom().voidItem();
        }
        SendScheduler scheduler = sender.scheduler();
        int budget = scheduler.sweepBudget();
        // Rows of fan-outs whose request was lost become due first, so this same poll can find them; no more of them
        // than could start soon (none while the instance is full), or a restart amid a backlog writes every pending
        // row at once. Due work of idle webhooks is looked for whatever the room, so it takes its turn.
        Uni<Void> swept = budget > 0 ? sweep.makeDue(config.pollBatchSize(), budget) : Uni.createFrom().voidItem();
        return swept
                .chain(() -> claims.due(scheduler.busyWebhooks(), config.pollBatchSize()))
                .invoke(found -> {
                    scheduler.offer(found);
                    scheduler.mayHaveMore(found.stream().map(RequestedDelivery::webhookId).collect(Collectors.toSet()));
                })
                .chain(() -> refills(scheduler.dueForRefill()))
                .onFailure().invoke(failure -> LOG.warnf("Poller could not find due deliveries: %s", failure.toString()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    private Uni<Void> refills(Map<String, Integer> due) {
        if (due.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Multi.createFrom().iterable(List.copyOf(due.entrySet()))
                .onItem().transformToUniAndConcatenate(entry -> sender.refill(entry.getKey(), entry.getValue()))
                .collect().last().replaceWithVoid();
    }
}
