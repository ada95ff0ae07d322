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
}
