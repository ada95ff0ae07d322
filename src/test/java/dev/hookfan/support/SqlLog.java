package dev.hookfan.support;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Captures every statement Hibernate Reactive sends (the test profile logs them at DEBUG, off the console). */
public final class SqlLog extends Handler implements AutoCloseable {

    private static final Logger SQL = Logger.getLogger("org.hibernate.SQL");
    private final List<String> statements = new CopyOnWriteArrayList<>();

    private SqlLog() {
    }

    public static SqlLog capture() {
        SqlLog log = new SqlLog();
        SQL.addHandler(log);
        return log;
    }

    public long count(String verb, String table) {
        return statements.stream()
                .map(statement -> statement.replaceAll("\\s+", " ").trim().toLowerCase(Locale.ROOT))
                .filter(statement -> statement.startsWith(verb))
                .filter(statement -> statement.contains(table))
                .count();
    }

    public List<String> statements() {
        return List.copyOf(statements);
    }

    @Override
    public void publish(LogRecord record) {
        statements.add(record.getMessage());
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        SQL.removeHandler(this);
    }
}
