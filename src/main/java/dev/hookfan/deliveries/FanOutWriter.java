package dev.hookfan.deliveries;

import dev.hookfan.api.Cursor;
import dev.hookfan.batching.GroupCommit;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes the fan-outs of events handled at the same time together (see {@link GroupCommit}): one lookup of the ids
 * already written, one insert of the missing rows, and, once that has committed, one delivery request naming them all.
 * A replay costs the lookup alone: no transaction, no write, no publish.
 */
@ApplicationScoped
class FanOutWriter {

    /** Events per batch: up to concurrency × prefetch events are in hand (256 by default); more wait for the next. */
    static final int MAX_BATCH = 128;
    /** One batch at a time: what arrives meanwhile makes the next one larger, and every commit is a WAL flush. */
    static final int BATCHES_IN_FLIGHT = 1;

    private final DeliveryRepository deliveries;
    private final DeliveryRequests requests;
    private final DeliveryConfig config;
    private final GroupCommit<List<NewDelivery>, List<String>> writes;

    FanOutWriter(DeliveryRepository deliveries, DeliveryRequests requests, DeliveryConfig config) {
        this.deliveries = deliveries;
        this.requests = requests;
        this.config = config;
        this.writes = new GroupCommit<>("fan-out", MAX_BATCH, BATCHES_IN_FLIGHT, this::writeAll);
    }

    /** Writes the candidates of one event that are not written yet; answers the ids this call inserted. */
    Uni<List<String>> write(List<NewDelivery> candidates) {
        return candidates.isEmpty() ? Uni.createFrom().item(List.of()) : writes.submit(candidates);
    }

    private Uni<List<List<String>>> writeAll(List<List<NewDelivery>> batch) {
        List<String> ids = batch.stream().flatMap(List::stream).map(NewDelivery::id).toList();
        return deliveries.existingIds(ids)
                .chain(existing -> insertMissing(batch, new HashSet<>(existing)));
    }

    private Uni<List<List<String>>> insertMissing(List<List<NewDelivery>> batch, Set<String> written) {
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
            return Uni.createFrom().item(insertedPerEvent);
        }
        return deliveries.insertIfAbsent(missing, Cursor.now(), config.sweepGrace())
                .chain(inserted -> {
                    // A concurrent writer elsewhere may have won some rows since the lookup: only what we inserted is ours.
                    Set<String> ours = Set.copyOf(inserted);
                    insertedPerEvent.forEach(mine -> mine.retainAll(ours));
                    return requests.request(inserted).replaceWith(insertedPerEvent);
                });
    }
}
