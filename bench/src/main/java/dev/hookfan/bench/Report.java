package dev.hookfan.bench;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/** The results file and the headline table the README quotes. */
final class Report {

    /** Figure key, what it is, decimals, the target. */
    private record Row(String key, String label, int decimals, String target) {
    }

    private static final List<Row> ROWS = Stream.of(
            List.of(
                new Row("ingest_alone_events_per_s", "ingest alone (ingest-only instance, nothing sends), events/s (publish → every delivery row written)", 0, "≥ 0.5 × raw"),
                new Row("ingest_alone_deliveries_per_s", "ingest alone, delivery rows/s", 0, ""),
                new Row("ingest_alone_warmup_events", "ingest alone, warm-up events before it (until the JIT settled)", 0, ""),
                new Row("ingest_alone_disk_bytes_per_event", "ingest alone, bytes on disk per event (tables, TOAST, indexes)", 0, ""),
                new Row("ingest_alone_total_wal_bytes_per_event", "ingest alone, WAL bytes per event (the server's)", 0, "")),
            statementRows("ingest_alone", "ingest alone", "event"),
            cpuRows("ingest_alone", "ingest alone", "publisher"),
            List.of(
                new Row("ingest_events_per_s", "ingest with the sender working, events/s (publish → every delivery row written)", 0, ""),
                new Row("ingest_deliveries_per_s", "ingest, delivery rows/s", 0, ""),
                new Row("ingest_sent_per_s", "ingest, deliveries/s received by the subscriber (publish → last POST)", 0, ""),
                new Row("ingest_warmup_events", "ingest, warm-up events before it (until the JIT settled)", 0, ""),
                new Row("ingest_disk_bytes_per_event", "ingest, bytes on disk per event (tables, TOAST, indexes)", 0, ""),
                new Row("ingest_total_wal_bytes_per_event", "ingest, WAL bytes per event (the server's)", 0, "")),
            cpuRows("ingest", "ingest", "publisher, subscriber"),
            List.of(
                new Row("ingest_publish_events_per_s", "publisher, events/s confirmed by the broker while Hookfan consumes and sends", 0, ""),
                new Row("replay_events_per_s", "replay, events/s", 0, ""),
                new Row("replay_selects_per_event", "replay, SELECT statements per event (all of PostgreSQL's)", 4, "1"),
                new Row("replay_writes_per_event", "replay, INSERT/UPDATE/DELETE per event", 4, "0"),
                new Row("replay_transactions_per_event", "replay, BEGIN per event", 4, ""),
                new Row("replay_new_rows", "replay, new delivery rows", 0, "0"),
                new Row("replay_posts", "replay, POSTs (publishes of delivery_requested lead to these)", 0, "0"),
                new Row("sender_deliveries_per_s", "sender alone, signed deliveries/s", 0, "≥ 5,000"),
                new Row("sender_heap_only_updates_pct", "sender, delivery row updates that were heap-only (no index entries), %", 0, "")),
            statementRows("sender", "sender", "delivery"),
            cpuRows("sender", "sender", "publisher, subscriber"),
            List.of(
                new Row("latency_offered_events_per_s", "latency phase, offered events/s", 0, "1,000"),
                new Row("latency_persisted_p50_ms", "publish → delivery row written, p50 ms", 1, ""),
                new Row("latency_persisted_p99_ms", "publish → delivery row written, p99 ms", 1, "< 50"),
                new Row("latency_post_p50_ms", "publish → subscriber got the POST, p50 ms", 1, ""),
                new Row("latency_post_p99_ms", "publish → subscriber got the POST, p99 ms", 1, ""),
                new Row("latency_heap_only_updates_pct", "latency phase, delivery row updates that were heap-only (no index entries), %", 0, "")),
            List.of(
                new Row("raw_latency_p50_ms", "raw broker (PerfTest) at the same rate, publish → consumer p50 ms (median of its seconds after the 2nd)", 1, ""),
                new Row("raw_latency_p99_ms", "raw broker (PerfTest) at the same rate, publish → consumer p99 ms (median of its seconds after the 2nd)", 1, ""),
                new Row("raw_latency_worst_p99_ms", "raw broker (PerfTest) at the same rate, publish → consumer p99 ms of its worst second after the 2nd", 1, ""),
                new Row("raw_latency_rabbitmq_cpu_pct", "raw broker (PerfTest) at the same rate, CPU of RabbitMQ, % of all cores", 0, ""),
                new Row("raw_latency_machine_cpu_pct", "raw broker (PerfTest) at the same rate, CPU of the whole machine, % of all cores", 0, "")),
            statementRows("latency", "latency phase", "event"),
            cpuRows("latency", "latency phase", "publisher, subscriber"),
            List.of(
                new Row("startup_ms", "start-up to ready, ms", 0, ""),
                new Row("idle_rss_mib", "resident memory at idle, MiB", 0, "≤ 150"),
                new Row("peak_rss_mib", "resident memory at peak (VmHWM), MiB", 0, ""))
    ).flatMap(List::stream).toList();

    private Report() {
    }

    /** What Benchmark#phaseStatements puts for a phase, per event or delivery. */
    private static List<Row> statementRows(String phase, String label, String unit) {
        return List.of(
                new Row(phase + "_pg_plan_us_per_" + unit, label + ", PostgreSQL statement planning per " + unit + ", µs", 0, ""),
                new Row(phase + "_pg_exec_us_per_" + unit, label + ", PostgreSQL statement execution per " + unit + ", µs", 0, ""),
                new Row(phase + "_wal_bytes_per_" + unit, label + ", WAL written by statements per " + unit + ", bytes", 0, ""),
                new Row(phase + "_checkpoints", label + ", PostgreSQL checkpoints begun during it", 0, ""),
                new Row(phase + "_deadlocks", label + ", deadlocks in the service's database (pg_stat_database)", 0, ""));
    }

    /** The six shares that {@link CpuMeter#stop} puts for a phase, in its order. */
    private static List<Row> cpuRows(String phase, String label, String benchmarkDoes) {
        return List.of(
                new Row(phase + "_service_cpu_pct", label + ", CPU of the service, % of all cores", 0, ""),
                new Row(phase + "_jit_cpu_pct", label + ", of which its JIT compiler threads, % of all cores", 1, ""),
                new Row(phase + "_postgres_cpu_pct", label + ", CPU of PostgreSQL, % of all cores", 0, ""),
                new Row(phase + "_rabbitmq_cpu_pct", label + ", CPU of RabbitMQ, % of all cores", 0, ""),
                new Row(phase + "_bench_cpu_pct", label + ", CPU of the benchmark (" + benchmarkDoes + "), % of all cores", 0, ""),
                new Row(phase + "_machine_cpu_pct", label + ", CPU of the whole machine, % of all cores", 0, ""));
    }

    /** One headline table per artifact, then the native executable beside the JVM when both ran. */
    static String headlines(List<Double> rawRates, Map<String, List<Map<String, Double>>> runs) {
        StringBuilder text = new StringBuilder();
        runs.forEach((artifact, itsRuns) -> text.append("### ").append(title(artifact))
                .append("\n\n").append(headline(rawRates, itsRuns)).append("\n"));
        if (runs.containsKey("jvm") && runs.containsKey("native")) {
            text.append(nativeBesideJvm(runs.get("jvm"), runs.get("native")));
        }
        Map<String, List<Map<String, Double>>> traced = new java.util.LinkedHashMap<>();
        runs.forEach((artifact, itsRuns) -> {
            if (artifact.startsWith("jvm")) {
                traced.put(title(artifact), itsRuns);
            }
        });
        if (traced.size() > 1) {
            text.append(beside("Tracing beside tracing off (alternating within each run)", traced, TRACING_ROWS));
        }
        return text.toString();
    }

    static String title(String artifact) {
        String base = artifact.startsWith("native") ? "Native executable" : "JVM (fast-jar)";
        java.util.OptionalInt traced = Benchmark.Options.tracedPercent(artifact);
        return traced.isEmpty() ? base : base + ", traced, " + traced.getAsInt() + " % sampled";
    }

    private static final List<Row> TRACING_ROWS = List.of(
            new Row("ingest_alone_events_per_s", "ingest alone, events/s", 0, ""),
            new Row("ingest_alone_service_cpu_pct", "ingest alone, CPU of the service, % of all cores", 0, ""),
            new Row("ingest_events_per_s", "ingest with the sender working, events/s", 0, ""),
            new Row("sender_deliveries_per_s", "sender alone, signed deliveries/s", 0, ""),
            new Row("sender_service_cpu_pct", "sender, CPU of the service, % of all cores", 0, ""),
            new Row("latency_persisted_p99_ms", "latency phase, publish → delivery row written, p99 ms", 1, ""),
            new Row("latency_post_p99_ms", "latency phase, publish → POST received, p99 ms", 1, ""),
            new Row("peak_rss_mib", "resident memory at peak (VmHWM), MiB", 0, ""),
            new Row("traces_exported_kib", "OTLP exported to the collector over the run, KiB", 0, ""));

    /** One column per variant, one row per figure: medians (min–max) of the runs. */
    private static String beside(String title, Map<String, List<Map<String, Double>>> columns, List<Row> rows) {
        StringBuilder table = new StringBuilder("### ").append(title).append("\n\n| figure |");
        columns.keySet().forEach(column -> table.append(' ').append(column).append(" |"));
        table.append("\n|---|").append("---|".repeat(columns.size())).append('\n');
        for (Row row : rows) {
            table.append("| ").append(row.label()).append(" |");
            columns.values().forEach(runs -> {
                List<Double> values = runs.stream().map(run -> run.get(row.key())).filter(java.util.Objects::nonNull).toList();
                table.append(' ').append(values.isEmpty() ? "–" : Stats.summary(values, row.decimals())).append(" |");
            });
            table.append('\n');
        }
        return table.append('\n').toString();
    }

    private static final List<Row> NATIVE_ROWS = List.of(
            new Row("startup_ms", "start-up to ready, ms", 0, "native < 500"),
            new Row("idle_rss_mib", "resident memory at idle, MiB", 0, "native ≤ 60, JVM ≤ 150"),
            new Row("peak_rss_mib", "resident memory at peak (VmHWM), MiB", 0, ""),
            new Row("ingest_alone_events_per_s", "ingest alone, events/s", 0, ""),
            new Row("ingest_events_per_s", "ingest with the sender working, events/s", 0, ""),
            new Row("ingest_service_cpu_pct", "ingest, CPU of the service, % of all cores", 0, ""),
            new Row("replay_events_per_s", "replay, events/s", 0, ""),
            new Row("sender_deliveries_per_s", "sender alone, signed deliveries/s", 0, ""),
            new Row("sender_service_cpu_pct", "sender, CPU of the service, % of all cores", 0, ""),
            new Row("latency_persisted_p99_ms", "latency phase, publish → delivery row written, p99 ms", 1, ""));

    private static String nativeBesideJvm(List<Map<String, Double>> jvm, List<Map<String, Double>> nativeRuns) {
        StringBuilder table = new StringBuilder("### Native beside the JVM (alternating within each run)\n\n"
                + "| figure | JVM | native | target |\n|---|---|---|---|\n");
        for (Row row : NATIVE_ROWS) {
            table.append("| ").append(row.label()).append(" | ")
                    .append(Stats.summary(jvm.stream().map(run -> run.get(row.key())).toList(), row.decimals())).append(" | ")
                    .append(Stats.summary(nativeRuns.stream().map(run -> run.get(row.key())).toList(), row.decimals()))
                    .append(" | ").append(row.target()).append(" |\n");
        }
        return table.toString();
    }

    static String headline(List<Double> rawRates, List<Map<String, Double>> runs) {
        StringBuilder table = new StringBuilder("| figure | median (min–max) of " + runs.size() + " runs | target |\n|---|---|---|\n");
        table.append("| raw broker (PerfTest), msg/s | ").append(Stats.summary(rawRates, 0)).append(" | |\n");
        for (Row row : ROWS) {
            List<Double> values = runs.stream().map(run -> run.get(row.key())).toList();
            table.append("| ").append(row.label()).append(" | ").append(Stats.summary(values, row.decimals()))
                    .append(" | ").append(row.target()).append(" |\n");
        }
        double alone = Stats.median(runs.stream().map(run -> run.get("ingest_alone_events_per_s")).toList());
        double withSender = Stats.median(runs.stream().map(run -> run.get("ingest_events_per_s")).toList());
        table.append(String.format(Locale.ROOT, "| **ingest alone ÷ raw** (medians) | **%.2f** | ≥ 0.5 |%n", alone / Stats.median(rawRates)));
        table.append(String.format(Locale.ROOT, "| ingest with the sender working ÷ raw (medians) | %.2f | |%n", withSender / Stats.median(rawRates)));
        return table.toString();
    }

    static String markdown(Benchmark.Options options, String machine, int messageSize, List<Double> rawRates,
                           Map<String, List<Map<String, Double>>> runsByArtifact, String phaseStatements, String statements) {
        StringBuilder text = new StringBuilder();
        text.append("# Hookfan benchmark, ").append(LocalDate.now()).append("\n\n")
                .append("Command: `bench/run.sh --events ").append(options.events()).append(" --warmup ").append(options.warmup())
                .append(" --warmup-rounds ").append(options.warmupRounds()).append(" --runs ").append(options.runs())
                .append(" --latency-rate ").append(options.latencyRate()).append(" --latency-seconds ").append(options.latencySeconds())
                .append(" --raw-seconds ").append(options.rawSeconds()).append(" --queue-type ").append(options.queueType())
                .append(" --payload-bytes ").append(options.payloadBytes()).append(" --fan-out ").append(options.fanOut())
                .append(" --artifacts ").append(String.join(",", options.artifacts())).append("`\n\n")
                .append("## Machine\n\n").append(machine).append("\n\n")
                .append("## Set-up\n\n")
                .append("Broker, database, load generator, subscriber and service all on this machine. ")
                .append(Benchmark.ORGANIZATIONS).append(" organizations × ").append(Benchmark.WEBHOOKS_PER_ORGANIZATION)
                .append(" enabled webhooks; each event goes to one organization, so it fans out to ")
                .append(Benchmark.WEBHOOKS_PER_ORGANIZATION).append(" deliveries. Events are ").append(messageSize)
                .append(" bytes (").append(Payload.dataBytes).append(" bytes of incompressible data), persistent, published with confirms (").append(Benchmark.CONFIRM_WINDOW)
                .append(" unconfirmed at most). The packaged service (`target/quarkus-app`) runs with its production defaults except:")
                .append(" its own database and vhost, `hookfan.auth.enabled=false` (only the set-up API calls would need a token) and")
                .append(" `hookfan.webhooks.allow-private-addresses=true` (the subscriber is on 127.0.0.1). Ingest is measured twice:")
                .append(" alone, on an instance started with `hookfan.delivery.sending-enabled=false`, then, after emptying the tables")
                .append(" and queues, on a normal instance whose sender works meanwhile. The subscriber answers 200")
                .append(" at once. The JVM is sized as the README's Kubernetes Deployment")
                .append(" (512 MiB limit) sizes it: `").append(String.join(" ", Service.CONTAINER_JVM_OPTIONS)).append("`.")
                .append(" Each instance is started anew and sends rounds of ").append(options.warmup())
                .append(" warm-up events through the whole path, until its JIT compiler threads used less than ")
                .append(String.format(Locale.ROOT, "%.0f", Benchmark.SETTLED_JIT_PCT))
                .append(" % of all cores over a round (at most ").append(options.warmupRounds())
                .append(" rounds), before any figure is taken.\n\n")
                .append(" The native executable, where it ran, gets the same heap limit: `")
                .append(String.join(" ", Service.CONTAINER_NATIVE_OPTIONS)).append("`.\n\n")
                .append("## Results\n\n").append(headlines(rawRates, runsByArtifact)).append("\n")
                .append("Raw broker runs (msg/s): ").append(rawRates).append("\n\n");
        runsByArtifact.forEach((artifact, runs) -> everyRun(text, artifact, runs));
        text.append("\n## Statements during ingest alone, the sender phase and the latency phase (pg_stat_statements)\n").append(phaseStatements);
        text.append("\n## Statements during the replays (pg_stat_statements)\n").append(statements);
        return text.toString();
    }

    private static void everyRun(StringBuilder text, String artifact, List<Map<String, Double>> runs) {
        text.append("### Every run, ").append(artifact).append("\n\n");
        List<String> keys = new ArrayList<>(runs.get(0).keySet());
        text.append("| figure |");
        for (int run = 1; run <= runs.size(); run++) {
            text.append(" run ").append(run).append(" |");
        }
        text.append("\n|---|").append("---:|".repeat(runs.size())).append("\n");
        for (String key : keys) {
            text.append("| ").append(key).append(" |");
            for (Map<String, Double> run : runs) {
                text.append(String.format(Locale.ROOT, " %.4f |", run.get(key)));
            }
            text.append("\n");
        }
        text.append("\n");
    }
}
