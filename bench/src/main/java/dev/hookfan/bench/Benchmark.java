package dev.hookfan.bench;

import java.nio.charset.StandardCharsets;
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
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * End-to-end benchmark of the packaged service against the machine's PostgreSQL and RabbitMQ: ingest, replay,
 * sender, latency at a fixed rate, memory and start-up, beside the broker's raw limit. See bench/README.md.
 */
public final class Benchmark {

    /** The service's counter of delivery rows it wrote. */
    private static final String CREATED = "hookfan_deliveries_created_total";

    static final String VHOST = "hookfan-bench";
    static final String AMQP_URI = "amqp://guest:guest@127.0.0.1:5672/" + VHOST;
    static final String DATABASE = "hookfan_bench";
    static final String EXCHANGE = "integration-events";
    static final String WORK_QUEUE = "hookfan.integration-events";
    static final String DELIVERIES_QUEUE = "hookfan.deliveries";
    static final String DLQ = "hookfan.integration-events.dead-letters";
    static final String TYPE = "organization.member_removed";
    static final int ORGANIZATIONS = 20;
    /** Webhooks per organization, so deliveries per event: bench/run.sh --fan-out, 5 by default. */
    static int WEBHOOKS_PER_ORGANIZATION = 5;
    /** Unconfirmed publishes in flight, for our publisher and for PerfTest alike. */
    static final int CONFIRM_WINDOW = 1000;
    /** hookfan.messaging.prefetch's default: PerfTest's consumer gets the same. */
    static final int PREFETCH = 128;
    /** The warm-up is over once the service's JIT compiler threads use less than this share of all cores. */
    static final double SETTLED_JIT_PCT = 5;
    private static final java.time.format.DateTimeFormatter CLOCK_TIME = java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss");
    static final long PHASE_TIMEOUT_NANOS = TimeUnit.MINUTES.toNanos(15);

    private final Options options;
    private final Database db;
    private final Publisher publisher;
    private final Receiver receiver;
    /** The collector traced artifacts export to, started with the first of them. */
    private TraceSink traceSink;
    /** Every run's figures, per artifact (jvm, native), in --artifacts order. */
    private final Map<String, List<Map<String, Double>>> runs = new LinkedHashMap<>();
    private final StringBuilder statements = new StringBuilder();
    private final StringBuilder phaseStatements = new StringBuilder();
    /** The run and artifact the statement tables are of. */
    private String runLabel;
    /** Checkpoints begun before the phase whose statements are being counted. */
    private long checkpointsBefore;
    private long deadlocksBefore;

    record Options(int events, int warmup, int warmupRounds, int runs, int latencyRate, int latencySeconds, int rawSeconds, String queueType,
                   Path jar, Path results, boolean ingestAloneOnly, boolean sendShapesOnly, int shapeEvents, int payloadBytes,
                   int fanOut, boolean storageOnly, String storageShapes, int backlogEvents, List<String> artifacts,
                   Path nativeExecutable, boolean coldOnly, int coldEvents, List<String> coldModes, String compare) {

        /** What --artifacts names: the jar ("jvm") or the native executable ("native"), either traced ("jvm-traced-10"). */
        Path artifact(String name) {
            return name.startsWith("native") ? nativeExecutable : jar;
        }

        /** The share of traces an artifact's name asks to record ("jvm-traced-10": 10 %), or none. */
        static java.util.OptionalInt tracedPercent(String name) {
            int at = name.indexOf("-traced-");
            return at < 0 ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(Integer.parseInt(name.substring(at + 8)));
        }

        static Options parse(String[] args) {
            Map<String, String> given = new LinkedHashMap<>();
            for (int i = 0; i + 1 < args.length; i += 2) {
                given.put(args[i].replaceFirst("^--", ""), args[i + 1]);
            }
            return new Options(Integer.parseInt(given.getOrDefault("events", "50000")),
                    Integer.parseInt(given.getOrDefault("warmup", "10000")),
                    Integer.parseInt(given.getOrDefault("warmup-rounds", "10")),
                    Integer.parseInt(given.getOrDefault("runs", "3")),
                    Integer.parseInt(given.getOrDefault("latency-rate", "1000")),
                    Integer.parseInt(given.getOrDefault("latency-seconds", "60")),
                    Integer.parseInt(given.getOrDefault("raw-seconds", "20")),
                    given.getOrDefault("queue-type", "quorum"),
                    Path.of(given.getOrDefault("jar", "target/quarkus-app/quarkus-run.jar")),
                    Path.of(given.getOrDefault("results", "bench/results")),
                    "ingest-alone".equals(given.getOrDefault("only", "all")),
                    "send-shapes".equals(given.getOrDefault("only", "all")),
                    Integer.parseInt(given.getOrDefault("shape-events", "3000")),
                    Integer.parseInt(given.getOrDefault("payload-bytes", "1024")),
                    Integer.parseInt(given.getOrDefault("fan-out", "5")),
                    "storage".equals(given.getOrDefault("only", "all")),
                    given.getOrDefault("storage-shapes", "5x1024,5x4096,20x1024"),
                    Integer.parseInt(given.getOrDefault("backlog-events", "100000")),
                    List.of(given.getOrDefault("artifacts", "jvm").split(",")),
                    Path.of(given.getOrDefault("native", "target/hookfan-0.1.0-SNAPSHOT-runner")),
                    "cold".equals(given.getOrDefault("only", "all")),
                    Integer.parseInt(given.getOrDefault("cold-events", "20000")),
                    List.of(given.getOrDefault("cold-modes", String.join(",", ColdStart.MODES)).split(",")),
                    given.get("compare"));
        }
    }

    Benchmark(Options options, Database db, Publisher publisher, Receiver receiver) {
        this.options = options;
        this.db = db;
        this.publisher = publisher;
        this.receiver = receiver;
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        Payload.dataBytes = options.payloadBytes();
        WEBHOOKS_PER_ORGANIZATION = options.fanOut();
        try (Database db = new Database("jdbc:postgresql://127.0.0.1:5432/" + DATABASE);
             Publisher publisher = new Publisher(AMQP_URI, CONFIRM_WINDOW);
             Receiver receiver = new Receiver(0)) {
            new Benchmark(options, db, publisher, receiver).run();
        }
        System.exit(0);
    }

    void run() throws Exception {
        Path raw = options.results().resolve("raw");
        Files.createDirectories(raw);
        if (options.sendShapesOnly()) {
            sendShapes(raw);
            return;
        }
        if (options.coldOnly()) {
            coldStart(raw);
            return;
        }
        if (options.storageOnly()) {
            new StorageRun(this, options, db, publisher).run(raw);
            return;
        }
        int messageSize = event(0, Clock.micros()).length;
        List<Double> rawRates = new ArrayList<>();
        List<Phases.RawAtRate> rawAtRate = new ArrayList<>();
        for (int run = 1; run <= options.runs(); run++) {
            log("PerfTest run %d: %d s, %d-byte persistent messages, confirms %d, prefetch %d, %s queue", run,
                    options.rawSeconds(), messageSize, CONFIRM_WINDOW, PREFETCH, options.queueType());
            rawRates.add(RawBroker.receivingRate(AMQP_URI, options.queueType(), messageSize, CONFIRM_WINDOW, PREFETCH,
                    options.rawSeconds(), raw.resolve("perftest-" + run + ".log")));
            publisher.delete("hookfan.bench.raw");
            log("  raw broker: %.0f msg/s", rawRates.get(run - 1));
            if (!options.ingestAloneOnly()) {
                int seconds = Math.min(options.latencySeconds(), 20);
                Phases.RawAtRate atRate = RawBroker.atRate(AMQP_URI, options.queueType(), messageSize, CONFIRM_WINDOW,
                        PREFETCH, options.latencyRate(), seconds, raw.resolve("perftest-" + run + "-at-rate.log"));
                publisher.delete("hookfan.bench.raw");
                log("  raw broker at %d msg/s for %d s: consumer latency per second p50 %.1f ms, p99 %.1f ms (worst %.1f);"
                                + " RabbitMQ %.0f %% of all cores", options.latencyRate(), seconds, atRate.p50Ms(),
                        atRate.p99Ms(), atRate.worstP99Ms(), atRate.rabbitmqCpuPct());
                rawAtRate.add(atRate);
            }
        }
        // The artifacts take turns within each run, so a machine's drift over the run touches both alike.
        for (int run = 1; run <= options.runs(); run++) {
            for (String artifact : options.artifacts()) {
                Phases.Run measured = serviceRun(run, raw, artifact, run <= rawAtRate.size() ? rawAtRate.get(run - 1) : null);
                runs.computeIfAbsent(artifact, name -> new ArrayList<>()).add(measured.figures());
            }
        }
        if (options.ingestAloneOnly()) {
            // A quick look while changing the service: no report, whose other figures this mode does not take.
            log("Only ingest alone, no report written: raw %s msg/s, runs %s%n%s", rawRates, runs, phaseStatements);
            return;
        }
        Path report = options.results().resolve(LocalDate.now() + ".md");
        Files.writeString(report, Report.markdown(options, machine(), messageSize, rawRates, runs, phaseStatements.toString(), statements.toString()));
        log("Results: %s, plots: %s", report, Plots.write(report));
        System.out.println(Report.headlines(rawRates, runs));
    }

    /** The send scheduler's traffic shapes alone, on one normal instance (see {@link SendShapes}). */
    private void sendShapes(Path raw) throws Exception {
        try (ShapedReceiver shaped = SendShapes.receiver();
             Service service = Service.start(options.jar(), serviceProperties(), raw.resolve("service-send-shapes.log"))) {
            emptyAll();
            SendShapes shapes = new SendShapes(publisher, shaped, options.shapeEvents());
            shapes.createWebhooks();
            List<SendShapes.Result> results = shapes.run();
            String markdown = SendShapes.markdown(machine(), results, "bench/run.sh --only send-shapes --shape-events "
                    + options.shapeEvents());
            log("Results: %s", SendShapes.write(options.results(), markdown));
            System.out.println(markdown);
        }
    }

    /** A cold instance draining a pre-filled queue, builds alternating (see {@link ColdStart}). */
    private void coldStart(Path raw) throws Exception {
        Map<String, Path> builds = ColdStart.builds(options.compare(), options.jar());
        ColdStart cold = new ColdStart(options.coldEvents(), options.runs(), builds, options.coldModes(), raw);
        List<ColdStart.Result> results = cold.run();
        String markdown = ColdStart.markdown(machine(), results, builds, "bench/run.sh --only cold --cold-events "
                + options.coldEvents() + " --cold-modes " + String.join(",", options.coldModes()) + " --runs " + options.runs() + (options.compare() == null ? "" : " --compare " + options.compare()), cold.statements());
        log("Results: %s", ColdStart.write(options.results(), markdown));
        System.out.println(markdown);
    }

    List<String> serviceProperties() {
        return List.of(
                "quarkus.datasource.reactive.url=postgresql://127.0.0.1:5432/" + DATABASE,
                "quarkus.datasource.jdbc.url=jdbc:postgresql://127.0.0.1:5432/" + DATABASE,
                "rabbitmq-host=127.0.0.1",
                "rabbitmq-virtual-host=" + VHOST,
                "hookfan.messaging.queue-type=" + options.queueType(),
                // The API calls that set up the webhooks are not measured; tokens would only add set-up code.
                "hookfan.auth.enabled=false",
                // The receiver listens on 127.0.0.1, which production settings refuse as a webhook target.
                "hookfan.webhooks.allow-private-addresses=true");
    }

    private Phases.Run serviceRun(int run, Path raw, String artifact, Phases.RawAtRate rawAtRate) throws Exception {
        runLabel = run + " (" + artifact + ")";
        List<String> properties = new ArrayList<>(serviceProperties());
        properties.addAll(tracing(artifact));
        long exportedBefore = traceSink == null ? 0 : traceSink.bytes();
        String[] ids = new String[options.events()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = UUID.randomUUID().toString();
        }
        Phases.IngestAlone alone = ingestAlone(run, raw, artifact, properties, ids);
        Phases.Sending sending = options.ingestAloneOnly() ? null : sending(run, raw, artifact, properties, ids);
        Double traces = traceSink != null && Options.tracedPercent(artifact).isPresent()
                ? (traceSink.bytes() - exportedBefore) / 1024.0 : null;
        Phases.Run measured = new Phases.Run(alone, sending, rawAtRate, traces);
        log("Run %d, %s: %s", run, artifact, measured.figures());
        return measured;
    }

    /** 1a: ingest alone, as the issue allows: an ingest-only instance writes and requests, and nothing sends. */
    private Phases.IngestAlone ingestAlone(int run, Path raw, String artifact, List<String> properties, String[] ids) throws Exception {
        List<String> ingestOnly = new ArrayList<>(properties);
        ingestOnly.add("hookfan.delivery.sending-enabled=false");
        log("Run %d: starting the packaged service (%s) as an ingest-only instance", run, artifact);
        try (Service service = Service.start(options.artifact(artifact), ingestOnly,
                raw.resolve("service-" + artifact + "-" + run + "-ingest-only.log"))) {
            emptyAll();
            createWebhooks();
            int warmup = warmUp(service.pid(), false);
            startPhaseStatements();
            CpuMeter cpu = CpuMeter.start(service.pid());
            Phases.Ingest ingest = ingest(ids, Clock.micros(), "ingest_alone", false);
            Phases.Cpu used = cpu.stop();
            Phases.Statements statements = phaseStatements("ingest alone", ids.length, "event");
            // Its requests must not reach the next instance, which would start sending them before it is measured idle.
            emptyAll();
            return new Phases.IngestAlone(warmup, ingest, used, statements);
        }
    }

    /** 1b to 4 on a normal instance: ingest with the sender working, the replay, the sender alone, the latency phase. */
    private Phases.Sending sending(int run, Path raw, String artifact, List<String> properties, String[] ids) throws Exception {
        log("Run %d: starting the packaged service (%s)", run, artifact);
        try (Service service = Service.start(options.artifact(artifact), properties, raw.resolve("service-" + artifact + "-" + run + ".log"))) {
            long startupMs = service.startupMillis;
            Thread.sleep(5000);
            double idleRss = service.residentMiB("VmRSS");
            createWebhooks();

            int warmup = warmUp(service.pid(), true);
            long base = Clock.micros();
            CpuMeter cpu = CpuMeter.start(service.pid());
            Phases.Ingest ingest = ingest(ids, base, "ingest", true);
            Phases.Cpu ingestCpu = cpu.stop();
            Phases.Replay replay = replay(ids, base);
            // What the phases before updated must be reported before the sender phase's heap-only share is read.
            awaitStatisticsReported();
            List<Object[]> resend = reopenForSender();
            Updates beforeSender = deliveryUpdates();
            startPhaseStatements();
            cpu = CpuMeter.start(service.pid());
            double senderRate = sender(resend);
            Phases.Cpu senderCpu = cpu.stop();
            Phases.Statements senderStatements = phaseStatements("sender", options.events(), "delivery");
            Updates beforeLatency = heapOnlyUpdates("sender", beforeSender);
            startPhaseStatements();
            cpu = CpuMeter.start(service.pid());
            Phases.Latency latency = latency();
            Phases.Cpu latencyCpu = cpu.stop();
            Phases.Statements latencyStatements = phaseStatements("latency phase",
                    options.latencyRate() * options.latencySeconds(), "event");
            Updates afterLatency = heapOnlyUpdates("latency", beforeLatency);
            double peakRss = service.residentMiB("VmHWM");
            long dead = publisher.count(DLQ);
            if (dead != 0) {
                throw new IllegalStateException(dead + " messages in the DLQ: the run is not valid");
            }
            return new Phases.Sending(startupMs, idleRss, warmup, ingest, ingestCpu, replay, senderRate, senderCpu,
                    senderStatements, beforeLatency.heapOnlyPctSince(beforeSender), latency, latencyCpu, latencyStatements,
                    afterLatency.heapOnlyPctSince(beforeLatency), peakRss);
        }
    }

    /** Tracing on, as an operator switches it on (no rebuild), exporting OTLP/HTTP to the sink; nothing when off. */
    private List<String> tracing(String artifact) throws Exception {
        java.util.OptionalInt percent = Options.tracedPercent(artifact);
        if (percent.isEmpty()) {
            return List.of();
        }
        if (traceSink == null) {
            traceSink = new TraceSink();
        }
        return List.of("quarkus.otel.sdk.disabled=false",
                "quarkus.otel.exporter.otlp.endpoint=" + traceSink.endpoint(),
                "quarkus.otel.exporter.otlp.protocol=http/protobuf",
                "quarkus.otel.traces.sampler.arg=" + percent.getAsInt() / 100.0);
    }

    /** No rows and no messages: before each run, and after its ingest-only instance, so it leaves no backlog behind. */
    void emptyAll() throws Exception {
        db.truncateAll();
        for (String queue : List.of(WORK_QUEUE, DELIVERIES_QUEUE, DLQ)) {
            publisher.purge(queue);
        }
    }

    void createWebhooks() throws Exception {
        for (int org = 0; org < ORGANIZATIONS; org++) {
            for (int hook = 0; hook < WEBHOOKS_PER_ORGANIZATION; hook++) {
                Service.post("/organizations/" + organization(org) + "/webhooks",
                        "{\"url\":\"" + receiver.url("/hooks/" + org + "/" + hook) + "\",\"eventTypes\":[\"" + TYPE + "\"]}");
            }
        }
    }

    /**
     * The JIT compiles the hot paths during the first tens of thousands of events, on the cores the measured phases
     * need: rounds of --warmup events go through the whole path until the JIT compiler threads used less than
     * {@link #SETTLED_JIT_PCT} % of all cores over a round (at most --warmup-rounds rounds), and every figure is taken
     * after them. Answers how many events it sent.
     */
    int warmUp(long pid, boolean sending) throws Exception {
        int rounds = 0;
        while (rounds < options.warmupRounds() && options.warmup() > 0) {
            CpuMeter cpu = CpuMeter.start(pid);
            warmUpRound(sending);
            double jit = cpu.stop().jit();
            rounds++;
            log("  warm-up round %d: %d events, not measured; JIT compiler threads %.1f %% of all cores", rounds,
                    options.warmup(), jit);
            if (jit < SETTLED_JIT_PCT) {
                break;
            }
        }
        return rounds * options.warmup();
    }

    private void warmUpRound(boolean sending) throws Exception {
        long rows = (long) options.warmup() * WEBHOOKS_PER_ORGANIZATION;
        long postsBefore = receiver.posts();
        long expectedRows = db.count("select count(*) from webhook_delivery") + rows;
        double createdBefore = metricOrZero(CREATED);
        for (int i = 0; i < options.warmup(); i++) {
            publisher.publish(EXCHANGE, TYPE, UUID.randomUUID().toString(), event(i, Clock.micros()));
        }
        publisher.awaitConfirms();
        rowsWritten(createdBefore, rows, expectedRows);
        if (sending) {
            waitUntil(() -> receiver.posts() - postsBefore, rows);
        }
    }

    /**
     * 1: unique events as fast as the broker takes them, until every delivery row exists and, when the instance
     * sends, every POST arrived. The phase names it in the log.
     */
    Phases.Ingest ingest(String[] ids, long base, String phase, boolean sending) throws Exception {
        long rowsBefore = db.count("select count(*) from webhook_delivery" + NOT_AGED);
        long newRows = (long) ids.length * WEBHOOKS_PER_ORGANIZATION;
        long expectedRows = rowsBefore + newRows;
        long postsBefore = receiver.posts();
        double createdBefore = metricOrZero(CREATED);
        Storage storageBefore = Storage.read(db);
        log("  %s: %d events -> %d deliveries", phase, ids.length, newRows);
        long start = System.nanoTime();
        long startMicros = Clock.micros();
        for (int i = 0; i < ids.length; i++) {
            publisher.publish(EXCHANGE, TYPE, ids[i], event(i, base + i));
        }
        publisher.awaitConfirms();
        double publishSeconds = seconds(System.nanoTime() - start);
        rowsWritten(createdBefore, newRows, expectedRows);
        // The end is the last row's own commit time, not the poll that saw it, so the poll can be slow and cheap.
        double rowsSeconds = (lastCreatedMicros() - startMicros) / 1e6;
        Storage.PerEvent storage = Storage.read(db).since(storageBefore, ids.length);
        long rows = db.count("select count(*) from webhook_delivery" + NOT_AGED);
        long distinct = db.count("select count(distinct (e.message_id, d.webhook_id)) from webhook_delivery d"
                + " join delivery_event e on e.id = d.event_id" + NOT_AGED.replace("created_at", "d.created_at"));
        if (rows != expectedRows || distinct != expectedRows) {
            throw new IllegalStateException(rows + " rows, " + distinct + " distinct (message, webhook): expected " + expectedRows);
        }
        log("  %s: %.0f events/s (%.0f deliveries/s) persisted", phase, ids.length / rowsSeconds, newRows / rowsSeconds);
        if (sending) {
            waitUntil(() -> receiver.posts() - postsBefore, newRows);
            double postsSeconds = (receiver.lastPostMicros() - startMicros) / 1e6;
            log("  %s: all %d POSTs received after %.1f s", phase, newRows, postsSeconds);
            return new Phases.Ingest(storage, ids.length / publishSeconds, ids.length / rowsSeconds, newRows / rowsSeconds,
                    newRows / postsSeconds);
        }
        if (receiver.posts() != postsBefore) {
            throw new IllegalStateException((receiver.posts() - postsBefore) + " POSTs from an instance that should send nothing");
        }
        return new Phases.Ingest(storage, ids.length / publishSeconds, ids.length / rowsSeconds, newRows / rowsSeconds, null);
    }

    /** 3: the same events again: the rate, and every statement PostgreSQL ran meanwhile, per replayed event. */
    private Phases.Replay replay(String[] ids, long base) throws Exception {
        long rowsBefore = db.count("select count(*) from webhook_delivery" + NOT_AGED);
        long postsBefore = receiver.posts();
        double consumedBefore = Service.metric("hookfan_events_consumed_total");
        db.execute("select pg_stat_statements_reset()");
        log("  replay: %d events with the same message ids", ids.length);
        long start = System.nanoTime();
        for (int i = 0; i < ids.length; i++) {
            publisher.publish(EXCHANGE, TYPE, ids[i], event(i, base + i));
        }
        publisher.awaitConfirms();
        // The metrics endpoint, not the database, is polled here: the statement counts stay the service's own.
        long done = waitUntil(() -> (long) (metricOrZero("hookfan_events_consumed_total") - consumedBefore), ids.length);
        double replaySeconds = seconds(done - start);
        Thread.sleep(2000);
        List<Object[]> ran = serviceStatements("s.calls, s.query", "s.calls");
        Map<String, Long> byKind = new LinkedHashMap<>();
        statements.append("\nRun ").append(runLabel).append(", replay of ").append(ids.length).append(" events, ")
                .append(String.format(Locale.ROOT, "%.1f", replaySeconds)).append(" s:\n\n| calls | per event | statement |\n|---:|---:|---|\n");
        for (Object[] row : ran) {
            long calls = ((Number) row[0]).longValue();
            String query = row[1].toString().replaceAll("\\s+", " ").trim();
            byKind.merge(query.split(" ")[0].toLowerCase(Locale.ROOT), calls, Long::sum);
            statements.append("| ").append(calls).append(" | ").append(String.format(Locale.ROOT, "%.4f", (double) calls / ids.length))
                    .append(" | `").append(query.length() > 160 ? query.substring(0, 160) + "…" : query).append("` |\n");
        }
        long writes = byKind.getOrDefault("insert", 0L) + byKind.getOrDefault("update", 0L) + byKind.getOrDefault("delete", 0L);
        Phases.Replay replay = new Phases.Replay(ids.length / replaySeconds, (double) byKind.getOrDefault("select", 0L) / ids.length,
                (double) writes / ids.length, (double) byKind.getOrDefault("begin", 0L) / ids.length,
                db.count("select count(*) from webhook_delivery") - rowsBefore, receiver.posts() - postsBefore);
        log("  replay: %.0f events/s; per event %.4f SELECT, %.4f INSERT/UPDATE/DELETE, %.4f BEGIN; %d new rows, %d POSTs",
                replay.eventsPerS(), replay.selectsPerEvent(), replay.writesPerEvent(), replay.transactionsPerEvent(),
                replay.newRows(), replay.posts());
        return replay;
    }

    /**
     * What PostgreSQL spent on a phase, statement by statement and per event or delivery (pg_stat_statements, reset
     * before it; planning is tracked, bench/run.sh turns that on): where the next gain must come from. Commits and their
     * WAL flushes are not statements.
     */
    private void startPhaseStatements() throws Exception {
        db.execute("select pg_stat_statements_reset()");
        checkpointsBefore = checkpoints();
        deadlocksBefore = deadlocks();
    }

    /**
     * Checkpoints begun so far: a page's first change after one is written whole to the WAL (a full-page image), so a
     * phase that a checkpoint falls into pays more, by chance. The phase tables say how many did.
     */
    private long checkpoints() throws Exception {
        return db.count("select checkpoints_timed + checkpoints_req from pg_stat_bgwriter");
    }

    /** Deadlocks in the service's database so far; each stalls its statements for deadlock_timeout (1 s) first. */
    private long deadlocks() throws Exception {
        return db.count("select deadlocks from pg_stat_database where datname = '" + DATABASE + "'");
    }

    private Phases.Statements phaseStatements(String label, int units, String unit) throws Exception {
        List<Object[]> ran = serviceStatements("s.calls, s.total_exec_time, s.wal_bytes, s.wal_fpi, s.shared_blks_dirtied,"
                + " s.query, s.total_plan_time", "s.total_exec_time");
        long checkpoints = checkpoints() - checkpointsBefore;
        long deadlocks = deadlocks() - deadlocksBefore;
        phaseStatements.append("\nRun ").append(runLabel).append(", ").append(label).append(", ").append(units).append(' ').append(unit)
                .append("s, ").append(checkpoints).append(" checkpoint(s) begun during it, ").append(deadlocks)
                .append(" deadlock(s), per ").append(unit).append(":\n\n| calls | planning µs | execution µs | WAL bytes | full-page images"
                        + " | blocks dirtied | statement |\n|---:|---:|---:|---:|---:|---:|---|\n");
        double planMicros = 0;
        double execMicros = 0;
        double walBytes = 0;
        for (Object[] row : ran) {
            double plan = ((Number) row[6]).doubleValue() * 1000 / units;
            double exec = ((Number) row[1]).doubleValue() * 1000 / units;
            double wal = ((Number) row[2]).doubleValue() / units;
            planMicros += plan;
            execMicros += exec;
            walBytes += wal;
            String query = row[5].toString().replaceAll("\\s+", " ").trim();
            phaseStatements.append(String.format(Locale.ROOT, "| %.4f | %.1f | %.1f | %.0f | %.3f | %.3f | `%s` |%n",
                    ((Number) row[0]).doubleValue() / units, plan, exec, wal, ((Number) row[3]).doubleValue() / units,
                    ((Number) row[4]).doubleValue() / units, query.length() > 160 ? query.substring(0, 160) + "…" : query));
        }
        log("  %s: PostgreSQL statements planned in %.0f µs, run in %.0f µs, %.0f WAL bytes per %s; %d checkpoint(s), %d deadlock(s)",
                label, planMicros, execMicros, walBytes, unit, checkpoints, deadlocks);
        return new Phases.Statements(unit, planMicros, execMicros, walBytes, checkpoints, deadlocks);
    }

    /**
     * Before the sender phase: the first --events deliveries pending again with nothing attempted; answers them (id,
     * webhook, organization).
     */
    private List<Object[]> reopenForSender() throws Exception {
        int count = options.events();
        // Pending again with nothing attempted, as fresh rows are: no next attempt, and a sweep row due after the
        // default sweep grace (V8). The fast path sends them as send permits free up, and the poller sweeps only what a
        // lost request left, as in production.
        db.execute("create temporary table bench_resend as select id, webhook_id, organization_id from webhook_delivery"
                + " order by id limit " + count);
        db.execute("update webhook_delivery set status = 'pending', attempts = 0, lease_until = null, delivered_at = null,"
                + " next_attempt_at = null where id in (select id from bench_resend)");
        db.execute("insert into delivery_sweep (delivery_ids, due_at) select array_agg(id), now() + interval '5 seconds'"
                + " from bench_resend");
        // After the update: reopening a delivered row moves its success into delivery_attempt (V7's trigger).
        db.execute("delete from delivery_attempt where delivery_id in (select id from bench_resend)");
        List<Object[]> resend = db.query("select id, webhook_id, organization_id from bench_resend");
        db.execute("drop table bench_resend");
        return resend;
    }

    /** 5: the sender alone: the reopened deliveries' delivery_requested messages published at once; deliveries/s. */
    private double sender(List<Object[]> resend) throws Exception {
        int count = resend.size();
        long postsBefore = receiver.posts();
        log("  sender: %d delivery requests", count);
        long startMicros = Clock.micros();
        // As the service asks: one request per event, naming its deliveries (one per webhook of the organization).
        for (int from = 0; from < resend.size(); from += WEBHOOKS_PER_ORGANIZATION) {
            List<Object[]> rows = resend.subList(from, Math.min(resend.size(), from + WEBHOOKS_PER_ORGANIZATION));
            String deliveries = rows.stream().map(row -> "{\"id\":\"" + row[0] + "\",\"webhookId\":\"" + row[1]
                    + "\",\"organizationId\":\"" + row[2] + "\"}").collect(java.util.stream.Collectors.joining(","));
            publisher.publish("", DELIVERIES_QUEUE, rows.get(0)[0].toString(), ("{\"type\":\"webhook.delivery_requested\",\"deliveries\":["
                    + deliveries + "]}").getBytes(StandardCharsets.UTF_8));
        }
        publisher.awaitConfirms();
        waitUntil(() -> receiver.posts() - postsBefore, count);
        double seconds = (receiver.lastPostMicros() - startMicros) / 1e6;
        waitUntil(() -> count("select count(*) from webhook_delivery where status = 'delivered'"),
                db.count("select count(*) from webhook_delivery"));
        log("  sender: %.0f deliveries/s, signed", count / seconds);
        return count / seconds;
    }

    /** These columns of every statement the service ran in its database since the last reset, most first by orderBy. */
    private List<Object[]> serviceStatements(String columns, String orderBy) throws Exception {
        return db.query("select " + columns + " from pg_stat_statements s join pg_database d on d.oid = s.dbid"
                + " where d.datname = current_database() and s.query not like '" + Database.MARK.trim() + "%'"
                + " order by " + orderBy + " desc");
    }

    /** Updates of delivery rows so far, and how many of them were heap-only (no new index entries). */
    record Updates(long all, long heapOnly) {
        double heapOnlyPctSince(Updates before) {
            return 100.0 * (heapOnly - before.heapOnly) / Math.max(1, all - before.all);
        }
    }

    /**
     * After a phase and its CPU figures: how many of its delivery row updates were heap-only (an update that finds no
     * room on its row's page writes new entries in every index). Answers the counts it read, the next phase's start.
     */
    private Updates heapOnlyUpdates(String phase, Updates before) throws Exception {
        awaitStatisticsReported();
        Updates after = deliveryUpdates();
        log("  %s: %d delivery row updates, %.1f %% of them heap-only", phase, after.all() - before.all(),
                after.heapOnlyPctSince(before));
        return after;
    }

    /** An idle backend reports its table statistics within 10 s (PostgreSQL's PGSTAT_IDLE_INTERVAL). */
    private static void awaitStatisticsReported() throws InterruptedException {
        Thread.sleep(11_000);
    }

    private Updates deliveryUpdates() throws Exception {
        // Our own backend's pending statistics first, so the set-up's updates are not counted as the sender's.
        db.query("select pg_stat_force_next_flush()");
        Object[] row = db.query("select n_tup_upd, n_tup_hot_upd from pg_stat_user_tables where relname = 'webhook_delivery'").get(0);
        return new Updates(((Number) row[0]).longValue(), ((Number) row[1]).longValue());
    }

    /** 4: a fixed offered rate; publish→row written and publish→POST received, per delivery. */
    private Phases.Latency latency() throws Exception {
        int events = options.latencyRate() * options.latencySeconds();
        long expectedRows = db.count("select count(*) from webhook_delivery") + (long) events * WEBHOOKS_PER_ORGANIZATION;
        long postsBefore = receiver.posts();
        double createdBefore = metricOrZero(CREATED);
        receiver.recordLatencies(events * WEBHOOKS_PER_ORGANIZATION);
        log("  latency: %d events/s for %d s", options.latencyRate(), options.latencySeconds());
        long phaseStartMicros = Clock.micros();
        long start = System.nanoTime();
        long interval = TimeUnit.SECONDS.toNanos(1) / options.latencyRate();
        for (int i = 0; i < events; i++) {
            long due = start + i * interval;
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            publisher.publish(EXCHANGE, TYPE, UUID.randomUUID().toString(), event(i, Clock.micros()));
        }
        double offeredSeconds = seconds(System.nanoTime() - start);
        publisher.awaitConfirms();
        rowsWritten(createdBefore, (long) events * WEBHOOKS_PER_ORGANIZATION, expectedRows);
        waitUntil(() -> receiver.posts() - postsBefore, (long) events * WEBHOOKS_PER_ORGANIZATION);
        // An event and all its deliveries are written by one statement at one instant: the percentiles over events are
        // those over deliveries.
        String written = "select extract(epoch from created_at) * 1000000 as at, (('{' || body)::jsonb -> 'data' ->> 't')::bigint as t"
                + " from delivery_event where created_at >= to_timestamp(" + phaseStartMicros + " / 1000000.0)";
        Object[] persisted = db.query("select percentile_disc(0.5) within group (order by at - t), percentile_disc(0.99) within group"
                + " (order by at - t), count(*) * " + WEBHOOKS_PER_ORGANIZATION + " from (" + written + ") x").get(0);
        // Where the tail sits in time (a checkpoint, a burst of sweeps) says more than one p99 over the whole phase.
        String perSecond = db.query("select string_agg(round(p99 / 1000)::text, ' ' order by s) from (select floor((t - "
                + phaseStartMicros + ") / 1000000) as s, percentile_disc(0.99) within group (order by at - t) as p99 from ("
                + written + ") x group by 1) y").get(0)[0].toString();
        phaseStatements.append("\nPublish → delivery row written, p99 ms of each second of the latency phase: ").append(perSecond).append('\n');
        log("  latency: publish → row p99 ms per second: %s", perSecond);
        long[] posted = receiver.latencies();
        Phases.Latency latency = new Phases.Latency(events / offeredSeconds, ((Number) persisted[0]).doubleValue() / 1000,
                ((Number) persisted[1]).doubleValue() / 1000, Stats.percentile(posted, 50) / 1000.0,
                Stats.percentile(posted, 99) / 1000.0);
        log("  latency at %.0f events/s: persisted p50 %.1f ms p99 %.1f ms (%s rows); POST p50 %.1f ms p99 %.1f ms (%d POSTs)",
                latency.offeredEventsPerS(), latency.persistedP50Ms(), latency.persistedP99Ms(), persisted[2],
                latency.postP50Ms(), latency.postP99Ms(), posted.length);
        return latency;
    }

    private String machine() throws Exception {
        String cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(line -> line.startsWith("model name"))
                .findFirst().map(line -> line.substring(line.indexOf(':') + 1).trim()).orElse("unknown");
        String memory = Files.readAllLines(Path.of("/proc/meminfo")).get(0).replaceAll("\\s+", " ");
        String os = Files.readAllLines(Path.of("/etc/os-release")).stream().filter(line -> line.startsWith("PRETTY_NAME="))
                .findFirst().map(line -> line.substring(13).replace("\"", "")).orElse("unknown");
        return "- " + Runtime.getRuntime().availableProcessors() + " cores, " + cpu + "; " + memory + "\n"
                + "- " + os + ", Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")\n"
                + "- " + db.query("select version()").get(0)[0] + "; " + db.query("select string_agg(name || ' = '"
                        + " || current_setting(name), ', ' order by name) from pg_settings where name in"
                        + " ('checkpoint_timeout', 'max_wal_size', 'shared_buffers', 'synchronous_commit')").get(0)[0] + "\n"
                + "- RabbitMQ " + publisher.serverVersion();
    }

    static String organization(int org) {
        return String.format(Locale.ROOT, "bench_org_%02d", org);
    }

    /** Leaves out the aged backlog the storage run writes (two days old), which its purge deletes meanwhile. */
    static final String NOT_AGED = " where created_at > now() - interval '1 day'";

    /** An event of one of the organizations, with {@link Payload}'s data. */
    static byte[] event(int n, long publishedMicros) {
        return ("{\"type\":\"" + TYPE + "\",\"organizationId\":\"" + organization(n % ORGANIZATIONS)
                + "\",\"occurredAt\":\"2026-12-03T08:00:00Z\",\"data\":" + Payload.data(n, publishedMicros) + "}")
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Waits until the rows exist. The service's own counter of rows written is polled, then one count of the table
     * confirms it: counting a table of 275,000 rows every 200 ms took 264 ms of PostgreSQL time a call, a good part of
     * a core that the measured service lacked.
     */
    private void rowsWritten(double createdBefore, long newRows, long expectedRows) throws InterruptedException {
        // Each poll of a service metric is a whole Prometheus scrape: at 5 a second they were 2.5 % of the service's
        // CPU samples (JFR). Phases that wait for rows end on the rows' own timestamps, so once a second is enough.
        waitUntil(() -> (long) (metricOrZero(CREATED) - createdBefore), newRows, 1000);
        if (count("select count(*) from webhook_delivery" + NOT_AGED) < expectedRows) {
            waitUntil(() -> count("select count(*) from webhook_delivery" + NOT_AGED), expectedRows);
        }
    }

    /** When the newest delivery row was written, in epoch microseconds (the service's clock is this machine's). */
    private long lastCreatedMicros() throws Exception {
        return db.count("select (extract(epoch from max(created_at)) * 1000000)::bigint from webhook_delivery");
    }

    /** Polls until the value reaches the target; returns System.nanoTime() of the poll that saw it. */
    private static long waitUntil(LongSupplier value, long target) throws InterruptedException {
        // Coarse enough to cost the service little, fine enough for phases of many seconds.
        return waitUntil(value, target, 200);
    }

    private static long waitUntil(LongSupplier value, long target, long pollMillis) throws InterruptedException {
        long deadline = System.nanoTime() + PHASE_TIMEOUT_NANOS;
        while (System.nanoTime() < deadline) {
            if (value.getAsLong() >= target) {
                return System.nanoTime();
            }
            Thread.sleep(pollMillis);
        }
        throw new IllegalStateException("not reached within 15 minutes: " + value.getAsLong() + " of " + target);
    }

    private long count(String sql) {
        try {
            return db.count(sql);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static double metricOrZero(String name) {
        try {
            return Service.metric(name);
        } catch (Exception e) {
            return 0;
        }
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    static void log(String format, Object... args) {
        System.out.println("[bench] " + CLOCK_TIME.format(java.time.LocalTime.now()) + " " + String.format(Locale.ROOT, format, args));
    }
}
