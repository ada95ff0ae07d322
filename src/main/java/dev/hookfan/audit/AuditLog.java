package dev.hookfan.audit;

import dev.hookfan.api.Cursor;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** Reads an organization's audit entries a page at a time, in the order they were recorded. */
@Singleton
class AuditLog {

    /** The cursor's bound is written out (not a row comparison) so the (organization_id, recorded_at) index bounds the scan. */
    private static final String PAGE = "select id, organization_id, source_message_id, event_type, occurred_at,"
            + " recorded_at, data::text as data from audit_entry where organization_id = $1"
            + " and ($2::varchar is null or event_type = $2) and ($3::timestamptz is null or recorded_at >= $3)"
            + " and ($4::timestamptz is null or (recorded_at >= $4 and (recorded_at > $4 or (recorded_at = $4 and id > $5))))"
            + " order by recorded_at, id limit $6";

    private final Pool pool;

    AuditLog(Pool pool) {
        this.pool = pool;
    }

    /** Up to {@code limit} entries after the cursor (null: from the first), of one type and since an instant if given. */
    Uni<List<AuditEntryView>> page(String organizationId, String type, Instant since, Cursor after, int limit) {
        Tuple arguments = Tuple.tuple().addString(organizationId).addString(type).addOffsetDateTime(utc(since))
                .addOffsetDateTime(after == null ? null : utc(after.createdAt())).addString(after == null ? null : after.id())
                .addInteger(limit);
        return pool.preparedQuery(PAGE).execute(arguments).map(rows -> {
            List<AuditEntryView> entries = new ArrayList<>(rows.size());
            for (Row row : rows) {
                entries.add(new AuditEntryView(row.getString("id"), row.getString("organization_id"),
                        row.getString("source_message_id"), row.getString("event_type"),
                        instant(row, "occurred_at"), instant(row, "recorded_at"),
                        row.getString("data")));
            }
            return entries;
        });
    }

    private static Instant instant(Row row, String column) {
        OffsetDateTime at = row.getOffsetDateTime(column);
        return at == null ? null : at.toInstant();
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }
}
