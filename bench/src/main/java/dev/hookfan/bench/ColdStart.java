package dev.hookfan.bench;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A burst met by a cold instance: a work queue pre-filled with events while no instance runs, then an instance
 * started from nothing (new JVM, empty database and vhost) drains it, to the last delivery row (ingest) or the last
 * consumed message (replay of the same ids, nothing to write). Two sender modes: sending off, and every subscriber
 * hanging (accepts the connection, never answers). Several builds alternate within each run on one machine, so a
 * drift of the machine touches them alike. See bench/README.md, "Cold start".
 */
final class ColdStart {

    static final String DATABASE = "hookfan_bench_cold";
    static final String VHOST = "hookfan-bench-cold";
    static final String AMQP_URI = "amqp://guest:guest@127.0.0.1:5672/" + VHOST;
    static final int ORGANIZATIONS = 20;
    static final int WEBHOOKS_PER_ORGANIZATION = 5;
    static final List<String> MODES = List.of("sending-off", "hanging");
    static final List<String> PHASES = List.of("ingest", "replay");

    /** One measurement: a build, a mode, a phase (ingest or replay), and its rate over the drain. */
    record Result(int run, String build, String mode, String phase, double eventsPerS, long startupMs, long posts, Phases.Cpu cpu) {
    }

    private final int events;
    private final int runs;
    private final Map<String, Path> builds;
    private final Path raw;
    private final List<String> modes;
    private final HangingReceiver hanging;
    /** The first run's statements per build, mode and phase: where the database's time went. */
    private final StringBuilder statements = new StringBuilder();

    ColdStart(int events, int runs, Map<String, Path> builds, List<String> modes, Path raw) throws Exception {
        if (!MODES.containsAll(modes)) {
            throw new IllegalArgumentException("--cold-modes takes " + MODES + ", not " + modes);
        }
        this.modes = modes;
        this.events = events;
        this.runs = runs;
        this.builds = builds;
        this.raw = raw;
        this.hanging = new HangingReceiver();
    }

    List<Result> run() throws Exception {
        List<Result> results = new ArrayList<>();
        try (hanging) {
            for (int run = 1; run <= runs; run++) {
                for (String mode : modes) {
                    for (Map.Entry<String, Path> build : builds.entrySet()) {
                        results.addAll(measure(run, build.getKey(), build.getValue(), mode));
                    }
                }
            }
        }
        return results;
    }

    /** Ingest then replay of one build in one mode, each from a cold start. */
    private List<Result> measure(int run, String build, Path jar, String mode) throws Exception {
        resetDatabase();
        resetVhost();
        List<String> properties = properties(mode);
        String label = build + "-" + mode + "-" + run;
        try (Service setUp = Service.start(jar, properties, raw.resolve("cold-" + label + "-setup.log"))) {
            createWebhooks(mode);
        }
        String[] ids = new String[events];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = UUID.randomUUID().toString();
        }
        List<Result> results = new ArrayList<>();
        try (Database db = new Database("jdbc:postgresql://127.0.0.1:5432/" + DATABASE);
             Publisher publisher = new Publisher(AMQP_URI, Benchmark.CONFIRM_WINDOW)) {
            for (String phase : PHASES) {
                prefill(publisher, ids);
                long postsBefore = hanging.requests();
                resetStatements();
                Drain drain = new Drain(publisher);
                try (Service service = Service.start(jar, properties, raw.resolve("cold-" + label + "-" + phase + ".log"))) {
                    drain.awaitConsumed(events);
                    double seconds;
                    if (phase.equals("ingest")) {
                        awaitRows(db, (long) events * WEBHOOKS_PER_ORGANIZATION);
                    }
                    Phases.Cpu cpu = drain.cpu.stop();
                    String threads = drain.threads();
                    if (phase.equals("ingest")) {
                        long lastRowMicros = db.count("select (extract(epoch from max(created_at)) * 1000000)::bigint from webhook_delivery");
                        seconds = (lastRowMicros - drain.firstTakenMicros) / 1e6;
                    } else {
                        seconds = (drain.consumedMicros - drain.firstTakenMicros) / 1e6;
                    }
                    Result result = new Result(run, build, mode, phase, events / seconds, service.startupMillis,
                            hanging.requests() - postsBefore, cpu);
                    Benchmark.log("  cold %s, %s, %s, run %d: %.0f events/s (%.2f s from the first message taken; %d requests held"
                                    + " by the subscribers); CPU %% of all cores: service %.0f (JIT %.0f), PostgreSQL %.0f, RabbitMQ %.0f, machine %.0f",
                            build, mode, phase, run, result.eventsPerS(), seconds, result.posts(), cpu.service(), cpu.jit(),
                            cpu.postgres(), cpu.rabbitmq(), cpu.machine());
                    results.add(result);
                    if (run == 1) {
                        statements(label + " " + phase, seconds);
                        statements.append("\nThe service's threads, CPU ticks (1/100 s) during the drain: ").append(threads).append('\n');
                    }
                }
                if (publisher.count(Benchmark.DLQ) != 0) {
                    throw new IllegalStateException("messages in the DLQ: the run is not valid");
                }
            }
        }
        return results;
    }

    private List<String> properties(String mode) {
        List<String> properties = new ArrayList<>(List.of(
                "quarkus.datasource.reactive.url=postgresql://127.0.0.1:5432/" + DATABASE,
                "quarkus.datasource.jdbc.url=jdbc:postgresql://127.0.0.1:5432/" + DATABASE,
                "rabbitmq-host=127.0.0.1",
                "rabbitmq-virtual-host=" + VHOST,
                "hookfan.auth.enabled=false",
                "hookfan.webhooks.allow-private-addresses=true",
                "hookfan.delivery.timeout=30S",
                // A stop with 256 requests held would wait out the shutdown timeout; the next start is what is measured.
                "quarkus.shutdown.timeout=1S"));
        if (mode.equals("sending-off")) {
            properties.add("hookfan.delivery.sending-enabled=false");
        }
        return properties;
    }

    private void createWebhooks(String mode) throws Exception {
        for (int org = 0; org < ORGANIZATIONS; org++) {
            for (int hook = 0; hook < WEBHOOKS_PER_ORGANIZATION; hook++) {
                Service.post("/organizations/" + Benchmark.organization(org) + "/webhooks", "{\"url\":\""
                        + hanging.url("/hooks/" + org + "/" + hook) + "\",\"eventTypes\":[\"" + Benchmark.TYPE + "\"]}");
            }
        }
    }

    /** The events of the shape: 120 bytes of data, round robin over the organizations. */
    private void prefill(Publisher publisher, String[] ids) throws Exception {
        int dataBytes = Payload.dataBytes;
        Payload.dataBytes = 120;
        try {
            for (int i = 0; i < ids.length; i++) {
                publisher.publish(Benchmark.EXCHANGE, Benchmark.TYPE, ids[i], Benchmark.event(i, 0));
            }
            publisher.awaitConfirms();
        } finally {
            Payload.dataBytes = dataBytes;
        }
        long queued = publisher.count(Benchmark.WORK_QUEUE);
        if (queued != ids.length) {
            throw new IllegalStateException(queued + " messages in the work queue, expected " + ids.length);
        }
    }

    private void awaitRows(Database db, long rows) throws Exception {
        long deadline = System.nanoTime() + Benchmark.PHASE_TIMEOUT_NANOS;
        while (db.count("select count(*) from webhook_delivery") < rows) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the delivery rows were not all written within 15 minutes");
            }
            Thread.sleep(500);
        }
    }

    /**
     * Watches the work queue from before the instance starts: the first message taken is the start of the drain; the
     * end is when the service's own counter has consumed them all (polled only once the queue has nothing ready, so
     * the scrapes cost the service next to nothing).
     */
    private final class Drain {
        private final Publisher publisher;
        private final Thread watcher;
        volatile long firstTakenMicros = -1;
        /** From the first message taken, on the instance (the only process this benchmark has started). */
        volatile CpuMeter cpu;
        volatile long pid;
        volatile Map<String, Long> threadsBefore;

        long consumedMicros = -1;

        Drain(Publisher publisher) {
            this.publisher = publisher;
            this.watcher = new Thread(this::watch, "cold-drain");
            watcher.setDaemon(true);
            watcher.start();
        }

        private void watch() {
            try {
                while (publisher.count(Benchmark.WORK_QUEUE) >= events) {
                    Thread.sleep(10);
                }
                firstTakenMicros = Clock.micros();
                pid = ProcessHandle.current().children().filter(ProcessHandle::isAlive).findFirst().orElseThrow().pid();
                cpu = CpuMeter.start(pid);
                threadsBefore = CpuMeter.threadTicks(pid);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        /** The service's thread kinds that used CPU during the drain, busiest first. */
        String threads() throws Exception {
            Map<String, Long> after = CpuMeter.threadTicks(pid);
            StringBuilder out = new StringBuilder();
            after.entrySet().stream().map(e -> Map.entry(e.getKey(), e.getValue() - threadsBefore.getOrDefault(e.getKey(), 0L)))
                    .filter(e -> e.getValue() > 0).sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .forEach(e -> out.append(out.length() == 0 ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue()));
            return out.toString();
        }

        void awaitConsumed(int total) throws Exception {
            watcher.join(TimeUnit.MINUTES.toMillis(2));
            if (firstTakenMicros < 0) {
                throw new IllegalStateException("no message was taken from the work queue within 2 minutes");
            }
            long deadline = System.nanoTime() + Benchmark.PHASE_TIMEOUT_NANOS;
            while (publisher.count(Benchmark.WORK_QUEUE) > 0) {
                Thread.sleep(20);
            }
            while (Service.metric("hookfan_events_consumed_total") < total) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("not consumed within 15 minutes");
                }
                Thread.sleep(20);
            }
            consumedMicros = Clock.micros();
        }
    }

    private static final String DATABASE_STATS = "select xact_commit, tup_inserted, tup_updated, tup_deleted, tup_fetched,"
            + " blks_hit + blks_read from pg_stat_database where datname = '" + DATABASE + "'";
    private static final List<String> DATABASE_STAT_NAMES = List.of("commits", "rows inserted", "rows updated", "rows deleted",
            "rows fetched", "blocks read or hit");
    private Object[] databaseBefore;

    private void resetStatements() throws Exception {
        try (Database admin = new Database("jdbc:postgresql://127.0.0.1:5432/postgres")) {
            admin.execute("create extension if not exists pg_stat_statements");
            admin.execute("select pg_stat_statements_reset()");
            admin.query("select pg_stat_force_next_flush()");
            databaseBefore = admin.query(DATABASE_STATS).get(0);
        }
    }

    /** The service's statements of the drain (its first run's), by execution time: PostgreSQL's side of the profile. */
    private void statements(String label, double seconds) throws Exception {
        try (Database admin = new Database("jdbc:postgresql://127.0.0.1:5432/postgres")) {
            // The service's backends report within a second of going idle; the drain has ended by now.
            Thread.sleep(1500);
            Object[] after = admin.query(DATABASE_STATS).get(0);
            statements.append(String.format(Locale.ROOT, "%n%s (%.1f s):", label, seconds));
            for (int i = 0; i < after.length; i++) {
                statements.append(i == 0 ? " " : ", ").append(((Number) after[i]).longValue() - ((Number) databaseBefore[i]).longValue())
                        .append(' ').append(DATABASE_STAT_NAMES.get(i));
            }
            statements.append("\n\n| calls | rows | exec ms | statement |\n|---:|---:|---:|---|\n");
            for (Object[] row : admin.query("select calls, rows, round(total_exec_time)::bigint, query from pg_stat_statements"
                    + " where dbid = (select oid from pg_database where datname = '" + DATABASE + "')"
                    + " and query not like '%/* bench */%' order by total_exec_time desc limit 12")) {
                String query = row[3].toString().replaceAll("\\s+", " ").trim();
                statements.append("| ").append(row[0]).append(" | ").append(row[1]).append(" | ").append(row[2]).append(" | `")
                        .append(query.length() > 140 ? query.substring(0, 140) + "…" : query).append("` |\n");
            }
        }
    }

    String statements() {
        return statements.toString();
    }

    private static void resetDatabase() throws Exception {
        try (Database admin = new Database("jdbc:postgresql://127.0.0.1:5432/postgres")) {
            admin.execute("drop database if exists " + DATABASE + " with (force)");
            admin.execute("create database " + DATABASE);
        }
    }

    private static void resetVhost() throws Exception {
        rabbitmqctl("delete_vhost", VHOST);
        rabbitmqctl("add_vhost", VHOST);
        rabbitmqctl("set_permissions", "-p", VHOST, "guest", ".*", ".*", ".*");
    }

    private static void rabbitmqctl(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("rabbitmqctl", "-q"));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        // delete_vhost of a vhost that is not there is no error here: the first run has none.
        if (process.waitFor() != 0 && !arguments[0].equals("delete_vhost")) {
            throw new IllegalStateException("rabbitmqctl " + String.join(" ", arguments) + ": " + output);
        }
    }

    /** Every run's figures, then the median per build, mode and phase, as markdown. */
    static String markdown(String machine, List<Result> results, Map<String, Path> builds, String command, String statements) {
        StringBuilder out = new StringBuilder("# Hookfan benchmark, cold start: ").append(LocalDate.now()).append("\n\n")
                .append(machine).append("\n\n`").append(command).append("`\n\n")
                .append("Builds: ");
        builds.forEach((name, jar) -> out.append('`').append(name).append("` = ").append(jar).append("; "));
        out.append("\n\nevents/s from the first message taken to the last delivery row (ingest) or the last message consumed"
                + " (replay), median (min–max) of the runs:\n\n| mode | phase |");
        builds.keySet().forEach(name -> out.append(' ').append(name).append(" |"));
        out.append("\n|---|---|").append("---:|".repeat(builds.size())).append('\n');
        for (String mode : MODES) {
            for (String phase : PHASES) {
                out.append("| ").append(mode).append(" | ").append(phase).append(" |");
                for (String build : builds.keySet()) {
                    List<Double> rates = results.stream().filter(r -> r.build().equals(build) && r.mode().equals(mode)
                            && r.phase().equals(phase)).map(Result::eventsPerS).toList();
                    out.append(' ').append(rates.isEmpty() ? "–" : Stats.summary(rates, 0)).append(" |");
                }
                out.append('\n');
            }
        }
        out.append("\nEvery run (CPU: % of all cores over the drain):\n\n| run | build | mode | phase | events/s | start-up ms | requests held"
                + " | service CPU | of it JIT | PostgreSQL CPU | RabbitMQ CPU | machine CPU |\n|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Result r : results) {
            out.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %.0f | %d | %d | %.0f | %.0f | %.0f | %.0f | %.0f |%n", r.run(),
                    r.build(), r.mode(), r.phase(), r.eventsPerS(), r.startupMs(), r.posts(), r.cpu().service(), r.cpu().jit(),
                    r.cpu().postgres(), r.cpu().rabbitmq(), r.cpu().machine()));
        }
        out.append("\nThe service's statements during each drain of the first run, by execution time (pg_stat_statements):\n")
                .append(statements);
        return out.toString();
    }

    static Path write(Path results, String markdown) throws Exception {
        Path file = results.resolve(LocalDate.now() + "-cold.md");
        for (int n = 2; Files.exists(file); n++) {
            file = results.resolve(LocalDate.now() + "-cold-" + n + ".md");
        }
        Files.writeString(file, markdown);
        return file;
    }

    /** "name=path,name=path" or a bare path (named "this"), in the order given. */
    static Map<String, Path> builds(String given, Path jar) {
        Map<String, Path> builds = new LinkedHashMap<>();
        builds.put("this", jar);
        if (given != null) {
            for (String build : given.split(",")) {
                int at = build.indexOf('=');
                builds.put(build.substring(0, at), Path.of(build.substring(at + 1)));
            }
        }
        return builds;
    }

    /** Subscribers in an outage: every connection accepted, every request read, none ever answered. */
    static final class HangingReceiver implements AutoCloseable {
        private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        private final HttpServer server;
        private final AtomicLong requests = new AtomicLong();

        HangingReceiver() throws Exception {
            server = vertx.createHttpServer()
                    .requestHandler(request -> request.body().onSuccess(body -> requests.incrementAndGet()))
                    .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }

        String url(String path) {
            return "http://127.0.0.1:" + server.actualPort() + path;
        }

        long requests() {
            return requests.get();
        }

        @Override
        public void close() throws Exception {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}
