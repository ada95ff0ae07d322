package dev.hookfan.runtime;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A query that cannot reach PostgreSQL fails once for its caller, and nothing reaches Vert.x's log as uncaught. */
@QuarkusTest
class UncaughtExceptionsTest {

    /** Every error logged meanwhile, by any logger. */
    static final class ErrorRecords extends Handler {
        private final List<String> messages = new CopyOnWriteArrayList<>();

        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
                messages.add(record.getMessage());
            }
        }

        List<String> messages() {
            return messages;
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    @Inject
    Vertx vertx;

    @Inject
    UncaughtExceptions uncaught;

    @Test
    void should_not_log_the_sql_pools_second_failure_of_a_query_that_found_no_database_as_uncaught() throws Exception {
        ErrorRecords errors = new ErrorRecords();
        Logger.getLogger("").addHandler(errors);
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        long before = uncaught.poolTimerDoubleFailures();
        Pool pool = PgBuilder.pool()
                .with(new PoolOptions().setConnectionTimeout(200).setConnectionTimeoutUnit(TimeUnit.MILLISECONDS))
                .connectingTo(new PgConnectOptions().setHost("127.0.0.1").setPort(closedPort).setUser("postgres").setDatabase("none"))
                .using(vertx)
                .build();
        try {
            assertThrows(ExecutionException.class,
                    () -> pool.query("select 1").execute().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS));
            // The defect is real on this version: the pool's timer fires on the failed query.
            await().atMost(Duration.ofSeconds(5)).until(() -> uncaught.poolTimerDoubleFailures() > before);
            Thread.sleep(200);
            assertEquals(List.of(), errors.messages());
        } finally {
            pool.close();
            Logger.getLogger("").removeHandler(errors);
        }
    }

    @Test
    void should_still_log_any_other_uncaught_exception() {
        ErrorRecords errors = new ErrorRecords();
        Logger.getLogger("").addHandler(errors);
        try {
            vertx.runOnContext(ignored -> {
                throw new IllegalStateException("Result is already complete");
            });
            await().atMost(Duration.ofSeconds(5)).until(() -> !errors.messages().isEmpty());
            assertEquals("Uncaught exception received by Vert.x", errors.messages().get(0));
        } finally {
            Logger.getLogger("").removeHandler(errors);
        }
    }
}
