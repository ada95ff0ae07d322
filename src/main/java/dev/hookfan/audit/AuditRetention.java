package dev.hookfan.audit;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;

import java.time.Duration;

/** Deletes audit entries recorded longer ago than their retention, oldest first, a bounded batch at a time. */
@Singleton
public class AuditRetention {

    /** Through the creation-instant index; rows another purger has locked are skipped, never waited for. */
    private static final String PURGE = "with gone as (delete from audit_entry a where (a.source_message_id, a.organization_id) in"
            + " (select source_message_id, organization_id from audit_entry"
            + " where recorded_at < now() - $1 * interval '1 millisecond' order by recorded_at limit $2 for update skip locked)"
            + " returning 1) select count(*) as purged from gone";

    private final Pool pool;

    AuditRetention(Pool pool) {
        this.pool = pool;
    }

    /** Answers how many entries it deleted. */
    public Uni<Long> purgeBatch(Duration retention, int batchSize) {
        return pool.preparedQuery(PURGE).execute(Tuple.of(retention.toMillis(), batchSize))
                .map(rows -> rows.iterator().next().getLong("purged"));
    }
}
