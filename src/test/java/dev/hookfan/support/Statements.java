package dev.hookfan.support;

/**
 * Counts the statements PostgreSQL itself ran in the test database from now on, whoever sent them (Hibernate or the
 * reactive pool), through pg_stat_statements, which scripts/services.sh preloads.
 */
public final class Statements {

    private static final String THIS_DATABASE = "(select oid from pg_database where datname = current_database())";

    private Statements() {
    }

    public static Statements countedFromNow() {
        Database.update("create extension if not exists pg_stat_statements");
        Database.query("select pg_stat_statements_reset(0, " + THIS_DATABASE + ", 0)");
        return new Statements();
    }

    /** Executions of statements whose text matches the pattern (SQL LIKE, case-insensitive). */
    public long calls(String pattern) {
        return Database.count("select coalesce(sum(calls), 0) from pg_stat_statements where dbid = " + THIS_DATABASE
                + " and query ilike ?", pattern);
    }

    /**
     * Every SELECT but this class's own, the test JDBC driver's catalog lookups, and those of scheduled jobs that may
     * run at any moment: the backlog gauge's and the poller's look-ups of due deliveries, the retention purge's lock
     * and oldest-finished look-ups, the webhook change listener's heartbeat and the operational events' relay.
     */
    public long selects() {
        // One statement: a count of several would see the catalog lookups the earlier ones caused.
        return Database.count("select coalesce(sum(calls), 0) from pg_stat_statements where dbid = " + THIS_DATABASE
                + " and query ilike 'select%' and query not ilike '%pg_stat_statements%' and query not ilike '%pg_catalog.%'"
                + " and query not ilike 'select (due.pending + fresh.pending)%'"
                + " and query not ilike 'select d.id, d.webhook_id, d.organization_id from webhook_delivery d%'"
                + " and query not ilike 'select pg_try_advisory_xact_lock(hashtext(%'"
                + " and query not ilike 'select coalesce(extract(epoch from now() - min(created_at))%'"
                + " and query not ilike 'select pg_notify(%'"
                + " and query not ilike 'select id, event_type, body from operational_event%'");
    }

    /** What ran, for an assertion's message: each statement's calls and text. */
    public String ran() {
        return Database.query("select calls, query from pg_stat_statements where dbid = " + THIS_DATABASE
                + " and query not ilike '%pg_stat_statements%' order by calls desc").toString();
    }
}
