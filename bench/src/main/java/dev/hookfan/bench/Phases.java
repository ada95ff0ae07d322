package dev.hookfan.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What each phase of a service run measured, as records. {@link Run#figures()} writes them out under the results
 * file's keys (its "Every run" tables, which {@link Report} and {@link Plots} read), and nothing else names a key.
 */
final class Phases {

    private Phases() {
    }

    /** Shares of all cores over a phase, from {@link CpuMeter}. */
    record Cpu(double service, double jit, double postgres, double rabbitmq, double bench, double machine) {
        void into(Map<String, Double> figures, String phase) {
            figures.put(phase + "_service_cpu_pct", service);
            figures.put(phase + "_jit_cpu_pct", jit);
            figures.put(phase + "_postgres_cpu_pct", postgres);
            figures.put(phase + "_rabbitmq_cpu_pct", rabbitmq);
            figures.put(phase + "_bench_cpu_pct", bench);
            figures.put(phase + "_machine_cpu_pct", machine);
        }
    }

    /** What PostgreSQL's statements cost during a phase, per unit ("event" or "delivery"), and what befell it. */
    record Statements(String unit, double planMicros, double execMicros, double walBytes, long checkpoints, long deadlocks) {
        void into(Map<String, Double> figures, String phase) {
            figures.put(phase + "_checkpoints", (double) checkpoints);
            figures.put(phase + "_deadlocks", (double) deadlocks);
            figures.put(phase + "_pg_plan_us_per_" + unit, planMicros);
            figures.put(phase + "_pg_exec_us_per_" + unit, execMicros);
            figures.put(phase + "_wal_bytes_per_" + unit, walBytes);
        }
    }

    /** Unique events until every row existed; {@code sentPerS} (null when the instance sends nothing) until every POST. */
    record Ingest(Storage.PerEvent storage, double publishEventsPerS, double eventsPerS, double deliveriesPerS, Double sentPerS) {
        void into(Map<String, Double> figures, String phase) {
            figures.put(phase + "_disk_bytes_per_event", storage.diskBytes());
            figures.put(phase + "_total_wal_bytes_per_event", storage.walBytes());
            figures.put(phase + "_publish_events_per_s", publishEventsPerS);
            figures.put(phase + "_events_per_s", eventsPerS);
            figures.put(phase + "_deliveries_per_s", deliveriesPerS);
            if (sentPerS != null) {
                figures.put(phase + "_sent_per_s", sentPerS);
            }
        }
    }

    /** The same events again: the rate, every statement PostgreSQL ran per event, and what it must not have done. */
    record Replay(double eventsPerS, double selectsPerEvent, double writesPerEvent, double transactionsPerEvent,
                  long newRows, long posts) {
    }

    /** A fixed offered rate: publish → row written and publish → POST received. */
    record Latency(double offeredEventsPerS, double persistedP50Ms, double persistedP99Ms, double postP50Ms, double postP99Ms) {
    }

    /** PerfTest held to the latency phase's rate: the broker's own latency (medians over its seconds) and CPU. */
    record RawAtRate(double p50Ms, double p99Ms, double worstP99Ms, double rabbitmqCpuPct, double machineCpuPct) {
    }

    /** The ingest-only instance: its warm-up, then ingest alone. */
    record IngestAlone(int warmupEvents, Ingest ingest, Cpu cpu, Statements statements) {
    }

    /**
     * The normal instance: start-up and memory, then ingest with the sender working, the replay, the sender alone and
     * the latency phase, each with its CPU and the sender's and latency phase's statements and heap-only updates (%).
     */
    record Sending(long startupMs, double idleRssMib, int warmupEvents, Ingest ingest, Cpu ingestCpu, Replay replay,
                   double senderDeliveriesPerS, Cpu senderCpu, Statements senderStatements, double senderHeapOnlyPct,
                   Latency latency, Cpu latencyCpu, Statements latencyStatements, double latencyHeapOnlyPct,
                   double peakRssMib) {
    }

    /** One run of one artifact; {@code sending} is null in an ingest-alone-only run, {@code raw} and traces when not taken. */
    record Run(IngestAlone ingestAlone, Sending sending, RawAtRate raw, Double tracesExportedKib) {

        Map<String, Double> figures() {
            Map<String, Double> figures = new LinkedHashMap<>();
            figures.put("ingest_alone_warmup_events", (double) ingestAlone.warmupEvents());
            ingestAlone.ingest().into(figures, "ingest_alone");
            ingestAlone.cpu().into(figures, "ingest_alone");
            ingestAlone.statements().into(figures, "ingest_alone");
            if (sending != null) {
                figures.put("startup_ms", (double) sending.startupMs());
                figures.put("idle_rss_mib", sending.idleRssMib());
                figures.put("ingest_warmup_events", (double) sending.warmupEvents());
                sending.ingest().into(figures, "ingest");
                sending.ingestCpu().into(figures, "ingest");
                Replay replay = sending.replay();
                figures.put("replay_events_per_s", replay.eventsPerS());
                figures.put("replay_selects_per_event", replay.selectsPerEvent());
                figures.put("replay_writes_per_event", replay.writesPerEvent());
                figures.put("replay_transactions_per_event", replay.transactionsPerEvent());
                figures.put("replay_new_rows", (double) replay.newRows());
                figures.put("replay_posts", (double) replay.posts());
                figures.put("sender_deliveries_per_s", sending.senderDeliveriesPerS());
                sending.senderCpu().into(figures, "sender");
                sending.senderStatements().into(figures, "sender");
                figures.put("sender_heap_only_updates_pct", sending.senderHeapOnlyPct());
                Latency latency = sending.latency();
                figures.put("latency_offered_events_per_s", latency.offeredEventsPerS());
                figures.put("latency_persisted_p50_ms", latency.persistedP50Ms());
                figures.put("latency_persisted_p99_ms", latency.persistedP99Ms());
                figures.put("latency_post_p50_ms", latency.postP50Ms());
                figures.put("latency_post_p99_ms", latency.postP99Ms());
                sending.latencyCpu().into(figures, "latency");
                sending.latencyStatements().into(figures, "latency");
                figures.put("latency_heap_only_updates_pct", sending.latencyHeapOnlyPct());
                figures.put("peak_rss_mib", sending.peakRssMib());
            }
            if (tracesExportedKib != null) {
                figures.put("traces_exported_kib", tracesExportedKib);
            }
            if (raw != null) {
                figures.put("raw_latency_p50_ms", raw.p50Ms());
                figures.put("raw_latency_p99_ms", raw.p99Ms());
                figures.put("raw_latency_worst_p99_ms", raw.worstP99Ms());
                figures.put("raw_latency_rabbitmq_cpu_pct", raw.rabbitmqCpuPct());
                figures.put("raw_latency_machine_cpu_pct", raw.machineCpuPct());
            }
            return figures;
        }
    }
}
