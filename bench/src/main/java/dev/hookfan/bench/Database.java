package dev.hookfan.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** The benchmark's own JDBC connection to the service's database: counts, resets and statement statistics. */
final class Database implements AutoCloseable {

    /** Marks the benchmark's own statements, so pg_stat_statements' figures can leave them out (comments are kept). */
    static final String MARK = "/* bench */ ";

    private final Connection connection;

    Database(String url) throws Exception {
        this.connection = DriverManager.getConnection(url, "postgres", System.getenv().getOrDefault("PGPASSWORD", "postgres"));
    }

    long count(String sql) throws Exception {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(MARK + sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    List<Object[]> query(String sql) throws Exception {
        List<Object[]> result = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(MARK + sql)) {
            int columns = rows.getMetaData().getColumnCount();
            while (rows.next()) {
                Object[] row = new Object[columns];
                for (int i = 0; i < columns; i++) {
                    row[i] = rows.getObject(i + 1);
                }
                result.add(row);
            }
        }
        return result;
    }

    void execute(String sql) throws Exception {
        try (Statement statement = connection.createStatement()) {
            statement.execute(MARK + sql);
        }
    }

    /** Empties every table the service migrated, so each run starts from nothing. */
    void truncateAll() throws Exception {
        String tables = query("select string_agg(quote_ident(tablename), ', ') from pg_tables"
                + " where schemaname = 'public' and tablename <> 'flyway_schema_history'").get(0)[0].toString();
        for (int attempt = 1; ; attempt++) {
            try {
                execute("truncate " + tables + " cascade");
                return;
            } catch (java.sql.SQLException e) {
                // The running service's poller reads two of these tables: its locks and ours can meet in a deadlock.
                if (!"40P01".equals(e.getSQLState()) || attempt == 5) {
                    throw e;
                }
            }
        }
    }

    @Override
    public void close() throws Exception {
        connection.close();
    }
}
