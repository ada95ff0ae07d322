package dev.hookfan.support;

import org.eclipse.microprofile.config.ConfigProvider;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Plain JDBC against the test database: tests may block, the service never does. */
public final class Database {

    private Database() {
    }

    private static Connection connect() throws SQLException {
        var config = ConfigProvider.getConfig();
        return DriverManager.getConnection(config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getOptionalValue("quarkus.datasource.username", String.class).orElse("postgres"),
                config.getOptionalValue("quarkus.datasource.password", String.class).orElse(""));
    }

    /**
     * The event that delivery rows written by tests themselves refer to (V13: a delivery sends its stored event);
     * {@link #reset()} writes it again each time. Its deliveries send {@code {"delivery":"<id>","type":"a.b",…}}.
     */
    public static final String EVENT = "ee000000000000000000000000000000";
    public static final String EVENT_BODY = "\"type\":\"a.b\",\"organizationId\":\"org_test\",\"occurredAt\":null,"
            + "\"messageId\":null,\"data\":{}}";

    /** Empties every table; retried, since a running service's poller may deadlock with the truncate. */
    public static void reset() {
        for (int attempt = 1; ; attempt++) {
            try {
                update("truncate webhook, webhook_secret, webhook_delivery, delivery_attempt, delivery_sweep, delivery_event, operational_event,"
                        + " audit_entry, organization_entitlements");
                update("insert into delivery_event (id, organization_id, event_type, body, deliveries, created_at)"
                        + " values (?, 'org_test', 'a.b', ?, 0, now())", EVENT, EVENT_BODY);
                return;
            } catch (IllegalStateException e) {
                if (attempt == 5) {
                    throw e;
                }
            }
        }
    }

    /**
     * Holds an exclusive lock on the table until closed: every statement touching it waits, so a service's
     * handlers stay inside their messages (received, not yet settled) for as long as a test needs.
     */
    public static AutoCloseable lock(String table) {
        return holding("lock table " + table + " in access exclusive mode");
    }

    /** Runs the statement in a transaction left open until closed, then rolled back: what it locked stays locked. */
    public static AutoCloseable holding(String sql, Object... parameters) {
        return openUntilClosed(false, sql, parameters);
    }

    /** Runs the statement in a transaction left open until closed, then committed: another writer, just in time. */
    public static AutoCloseable committingOnClose(String sql, Object... parameters) {
        return openUntilClosed(true, sql, parameters);
    }

    /** How many of the service's statements like this one wait for a lock (on a row another transaction holds). */
    public static long waitingForALock(String statementLike) {
        return count("select count(*) from pg_stat_activity where wait_event_type = 'Lock' and query like ?", statementLike);
    }

    private static AutoCloseable openUntilClosed(boolean commit, String sql, Object... parameters) {
        try {
            Connection connection = connect();
            connection.setAutoCommit(false);
            try (PreparedStatement statement = prepare(connection, sql, parameters)) {
                statement.execute();
            }
            return () -> {
                try (connection) {
                    if (commit) {
                        connection.commit();
                    } else {
                        connection.rollback();
                    }
                }
            };
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A pending delivery of {@link #EVENT}, as a fan-out writes it; {@code nextAttemptAt} is SQL ("null": not due). */
    public static void pendingDelivery(String id, String webhookId, String organizationId, String nextAttemptAt) {
        update("insert into webhook_delivery (id, webhook_id, organization_id, event_id, status, attempts,"
                + " next_attempt_at, created_at) values (?, ?, ?, ?, 'pending', 0, " + nextAttemptAt + ", now())",
                id, webhookId, organizationId, EVENT);
    }

    public static int update(String sql, Object... parameters) {
        try (Connection connection = connect(); PreparedStatement statement = prepare(connection, sql, parameters)) {
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public static long count(String sql, Object... parameters) {
        List<List<Object>> rows = query(sql, parameters);
        return ((Number) rows.get(0).get(0)).longValue();
    }

    public static List<List<Object>> query(String sql, Object... parameters) {
        try (Connection connection = connect(); PreparedStatement statement = prepare(connection, sql, parameters);
             ResultSet result = statement.executeQuery()) {
            List<List<Object>> rows = new ArrayList<>();
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<Object> row = new ArrayList<>(columns);
                for (int i = 1; i <= columns; i++) {
                    row.add(result.getObject(i));
                }
                rows.add(row);
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static PreparedStatement prepare(Connection connection, String sql, Object... parameters) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        for (int i = 0; i < parameters.length; i++) {
            statement.setObject(i + 1, parameters[i]);
        }
        return statement;
    }
}
