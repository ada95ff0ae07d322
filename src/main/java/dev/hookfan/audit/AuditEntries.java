package dev.hookfan.audit;

import dev.hookfan.batching.GroupCommit;
import dev.hookfan.batching.OptimisticInsert;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes the audit entries of events handled at the same time together (see {@link GroupCommit}): one lookup of
 * those already recorded, then one insert of the rest. A replay costs the lookup alone, outside any transaction.
 * Straight on the reactive pool: through Hibernate the count query was built anew on every call, a cost the
 * profiles in bench/HISTORY.md show.
 */
@Singleton
class AuditEntries {

    /** One entry per event: up to concurrency × prefetch events are in hand (256 by default); more wait for the next. */
    static final int MAX_BATCH = 128;
    /** One batch at a time: what arrives meanwhile makes the next one larger, and every commit is a WAL flush. */
    static final int BATCHES_IN_FLIGHT = 1;

    private static final String RECORDED = "select a.source_message_id, a.organization_id from audit_entry a"
            + " join unnest($1::varchar[], $2::varchar[]) as t(source_message_id, organization_id)"
            + " on a.source_message_id = t.source_message_id and a.organization_id = t.organization_id";
    private static final OptimisticInsert INSERT = new OptimisticInsert("insert into audit_entry (id, organization_id, source_message_id, event_type,"
            + " occurred_at, recorded_at, data) select * from unnest($1::varchar[], $2::varchar[], $3::varchar[],"
            + " $4::varchar[], $5::timestamptz[], $6::timestamptz[], $7::text[])%s",
            "on conflict (source_message_id, organization_id) do nothing");

    /** One entry to record, keyed by the message it came from and its organization. */
    record NewEntry(String id, String organizationId, String sourceMessageId, String eventType, Instant occurredAt,
                    Instant recordedAt, String data) {

        String key() {
            return sourceMessageId + '\n' + organizationId;
        }
    }

    private final Pool pool;
    private final GroupCommit<NewEntry, Void> writes;

    AuditEntries(Pool pool) {
        this.pool = pool;
        this.writes = new GroupCommit<>("audit entries", MAX_BATCH, BATCHES_IN_FLIGHT, this::writeAll);
    }

    Uni<Void> record(NewEntry entry) {
        return writes.submit(entry);
    }

    private Uni<List<Void>> writeAll(List<NewEntry> batch) {
        Tuple keys = Tuple.of(batch.stream().map(NewEntry::sourceMessageId).toArray(String[]::new),
                batch.stream().map(NewEntry::organizationId).toArray(String[]::new));
        return pool.preparedQuery(RECORDED).execute(keys)
                .chain(rows -> {
                    Set<String> recorded = new HashSet<>();
                    for (Row row : rows) {
                        recorded.add(row.getString(0) + '\n' + row.getString(1));
                    }
                    List<NewEntry> missing = batch.stream().filter(entry -> recorded.add(entry.key())).toList();
                    return missing.isEmpty() ? Uni.createFrom().voidItem() : insert(missing);
                })
                .map(ignored -> Collections.nCopies(batch.size(), (Void) null));
    }

    /** A concurrent copy that got there first conflicts on the unique index and adds nothing ({@link OptimisticInsert}). */
    private Uni<Void> insert(List<NewEntry> entries) {
        int size = entries.size();
        String[] ids = new String[size];
        String[] organizations = new String[size];
        String[] messages = new String[size];
        String[] types = new String[size];
        OffsetDateTime[] occurred = new OffsetDateTime[size];
        OffsetDateTime[] recorded = new OffsetDateTime[size];
        String[] data = new String[size];
        for (int i = 0; i < size; i++) {
            NewEntry entry = entries.get(i);
            ids[i] = entry.id();
            organizations[i] = entry.organizationId();
            messages[i] = entry.sourceMessageId();
            types[i] = entry.eventType();
            occurred[i] = entry.occurredAt() == null ? null : entry.occurredAt().atOffset(ZoneOffset.UTC);
            recorded[i] = entry.recordedAt().atOffset(ZoneOffset.UTC);
            data[i] = entry.data();
        }
        return INSERT.execute(pool, Tuple.tuple().addArrayOfString(ids).addArrayOfString(organizations)
                        .addArrayOfString(messages).addArrayOfString(types).addArrayOfOffsetDateTime(occurred)
                        .addArrayOfOffsetDateTime(recorded).addArrayOfString(data))
                .replaceWithVoid();
    }
}
