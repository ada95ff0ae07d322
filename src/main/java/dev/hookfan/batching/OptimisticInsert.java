package dev.hookfan.batching;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;

import java.util.stream.Stream;

/**
 * An insert of rows a lookup has just found missing. It runs as a plain INSERT first: {@code ON CONFLICT DO NOTHING}
 * checks the unique index before every row, one more index descent each (its share of PostgreSQL's time during
 * ingest is in bench/HISTORY.md). Only when another writer committed one of the keys since the lookup does the plain
 * statement fail, as a whole, with a unique violation; it is then run again with its conflict clauses.
 */
public final class OptimisticInsert {

    private static final String UNIQUE_VIOLATION = "23505";

    private final String plain;
    private final String skippingConflicts;

    /**
     * @param statement the insert with a {@code %s} where each of its {@code ON CONFLICT} clauses goes
     * @param conflictClauses those clauses, in the statement's order
     */
    public OptimisticInsert(String statement, String... conflictClauses) {
        this.plain = statement.formatted(Stream.of(conflictClauses).map(clause -> "").toArray());
        this.skippingConflicts = statement.formatted(Stream.of(conflictClauses).map(clause -> " " + clause).toArray());
    }

    public Uni<RowSet<Row>> execute(Pool pool, Tuple arguments) {
        return pool.preparedQuery(plain).execute(arguments)
                .onFailure(OptimisticInsert::isUniqueViolation)
                .recoverWithUni(() -> pool.preparedQuery(skippingConflicts).execute(arguments));
    }

    static boolean isUniqueViolation(Throwable failure) {
        return failure instanceof PgException pg && UNIQUE_VIOLATION.equals(pg.getSqlState());
    }
}
