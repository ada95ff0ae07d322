package dev.hookfan.runtime;

import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What reaches Vert.x uncaught, logged as Quarkus does, less one known defect of the SQL client: when a pool query
 * cannot get a connection (PostgreSQL down), the query fails at once, and the pool's connection-timeout timer, never
 * cancelled on that path, later fails the same promise again (eclipse-vertx/vertx-sql-client#1706, open in 4.5.34).
 * The caller has its answer by then; the second failure changes nothing, so it is counted, not logged as an error.
 */
@Singleton
public class UncaughtExceptions {

    private static final Logger LOG = Logger.getLogger(UncaughtExceptions.class);

    private final AtomicLong poolTimerDoubleFailures = new AtomicLong();

    void handleOnStart(@Observes StartupEvent event, Vertx vertx) {
        vertx.exceptionHandler(this::handle);
    }

    void handle(Throwable uncaught) {
        if (isPoolTimerDoubleFailure(uncaught)) {
            poolTimerDoubleFailures.incrementAndGet();
            LOG.debug("The SQL pool's connection-timeout timer failed a query that had already failed (vertx-sql-client#1706)");
            return;
        }
        LOG.error("Uncaught exception received by Vert.x", uncaught);
    }

    long poolTimerDoubleFailures() {
        return poolTimerDoubleFailures.get();
    }

    static boolean isPoolTimerDoubleFailure(Throwable uncaught) {
        return uncaught instanceof IllegalStateException
                && "Result is already complete".equals(uncaught.getMessage())
                && Arrays.stream(uncaught.getStackTrace()).limit(4).anyMatch(frame ->
                        frame.getClassName().equals("io.vertx.sqlclient.impl.pool.SqlConnectionPool")
                                && frame.getMethodName().startsWith("lambda$execute"));
    }
}
