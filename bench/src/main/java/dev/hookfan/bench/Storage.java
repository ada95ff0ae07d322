package dev.hookfan.bench;

/**
 * What the service's tables take on disk (heap, TOAST, indexes and their free-space maps: pg_total_relation_size) and
 * where the WAL stands, read before and after a phase: bytes on disk and WAL bytes per event. The WAL is the whole
 * server's, which serves nothing else during a run.
 */
record Storage(long tableBytes, long walPosition) {

    static Storage read(Database db) throws Exception {
        Object[] row = db.query("select coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint,"
                + " pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint from pg_class c"
                + " join pg_namespace n on n.oid = c.relnamespace"
                + " where n.nspname = 'public' and c.relkind = 'r' and c.relname <> 'flyway_schema_history'").get(0);
        return new Storage(((Number) row[0]).longValue(), ((Number) row[1]).longValue());
    }

    /** Per event of the phase that began at {@code before}. */
    PerEvent since(Storage before, long events) {
        return new PerEvent((double) (tableBytes - before.tableBytes) / events, (double) (walPosition - before.walPosition) / events);
    }

    record PerEvent(double diskBytes, double walBytes) {
    }
}
