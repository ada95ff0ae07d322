package dev.hookfan.deliveries;

import dev.hookfan.api.Cursor;
import dev.hookfan.batching.CallerContext;
import dev.hookfan.batching.GroupCommit;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes the fan-outs of events handled at the same time together (see {@link GroupCommit}): one lookup of the ids
 * already written, one insert of the missing rows, and, once that has committed, one delivery request naming them all.
 * A replay costs the lookup alone: no transaction, no write, no publish. Each event completes once its rows are
 * committed and the request naming them is confirmed by the broker; the next batch is written meanwhile.
 */
@Singleton
class FanOutWriter {

    /** Events per batch: up to concurrency × prefetch events are in hand (256 by default); more wait for the next. */
    static final int MAX_BATCH = 128;
    /** Two at a time: with one, PostgreSQL sat idle while the service assembled the next batch (bench/HISTORY.md). */
    static final int BATCHES_IN_FLIGHT = 2;

    private final DeliveryRepository deliveries;
    private final DeliveryRequests requests;
    private final DeliveryConfig config;
    private final GroupCommit<List<NewDelivery>, Written> writes;

    /** What one event's batch wrote for it, and the confirm of the delivery request that names those rows. */
    private record Written(List<String> ids, Uni<Void> requested) {
    }

    FanOutWriter(DeliveryRepository deliveries, DeliveryRequests requests, DeliveryConfig config) {
        this.deliveries = deliveries;
        this.requests = requests;
        this.config = config;
        this.writes = new GroupCommit<>("fan-out", MAX_BATCH, BATCHES_IN_FLIGHT, this::writeAll);
    }

    /** Writes the candidates of one event that are not written yet; answers the ids this call inserted. */
    Uni<List<String>> write(List<NewDelivery> candidates) {
        if (candidates.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return writes.submit(candidates)
                .chain(written -> CallerContext.resumeOn(written.requested()).replaceWith(written.ids()));
    }

    private Uni<List<Written>> writeAll(List<List<NewDelivery>> batch) {
        List<String> ids = batch.stream().flatMap(List::stream).map(NewDelivery::id).toList();
        return deliveries.existingIds(ids)
                .chain(existing -> insertMissing(batch, new HashSet<>(existing)));
    }

    private Uni<List<Written>> insertMissing(List<List<NewDelivery>> batch, Set<String> written) {
        // Two copies of one message in one batch propose the same ids: the first one proposes, and so sends, them.
        Set<String> proposed = new HashSet<>(written);
        List<NewDelivery> missing = new ArrayList<>();
        List<List<String>> insertedPerEvent = new ArrayList<>(batch.size());
        for (List<NewDelivery> candidates : batch) {
            List<String> mine = new ArrayList<>();
            for (NewDelivery candidate : candidates) {
                if (proposed.add(candidate.id())) {
                    missing.add(candidate);
                    mine.add(candidate.id());
                }
            }
            insertedPerEvent.add(mine);
        }
        if (missing.isEmpty()) {
            return Uni.createFrom().item(written(insertedPerEvent, Uni.createFrom().voidItem()));
        }
        return deliveries.insertIfAbsent(missing, Cursor.now(), config.sweepGrace())
                .map(inserted -> {
                    // A concurrent writer elsewhere may have won some rows since the lookup: only what we inserted is ours.
                    Set<String> ours = Set.copyOf(inserted);
                    insertedPerEvent.forEach(mine -> mine.retainAll(ours));
                    return written(insertedPerEvent, requested(missing.stream().filter(row -> ours.contains(row.id()))
                            .map(row -> new RequestedDelivery(row.id(), row.webhookId(), row.event().organizationId))
                            .toList()));
                });
    }

    /**
     * Publishes the request now, once for the whole batch, while the batch's slot goes to the next batch: waiting for
     * the broker's confirm inside the slot left the database idle meanwhile. A failed publish fails every event of
     * the batch, which is retried; the rows exist, so the retry writes nothing and the poller's sweep sends them.
     */
    private Uni<Void> requested(List<RequestedDelivery> inserted) {
        Uni<Void> requested = requests.request(inserted).memoize().indefinitely();
        requested.subscribe().with(ignored -> { }, failure -> { });
        return requested;
    }

    private static List<Written> written(List<List<String>> insertedPerEvent, Uni<Void> requested) {
        return insertedPerEvent.stream().map(ids -> new Written(ids, requested)).toList();
    }
}
