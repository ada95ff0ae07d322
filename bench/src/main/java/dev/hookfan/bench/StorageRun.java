package dev.hookfan.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * bench/run.sh --only storage: what an event costs on disk and in WAL at several fan-outs and data sizes (ingest alone on
 * a fresh database each), beside the raw broker with messages of the same size, and ingest while the retention purge
 * deletes an aged backlog beside ingest with nothing to purge, alternating on one instance.
 */
final class StorageRun {

    record Shape(int fanOut, int dataBytes) {
        static List<Shape> parse(String list) {
            List<Shape> shapes = new ArrayList<>();
            for (String item : list.split(",")) {
                String[] parts = item.trim().split("x");
                shapes.add(new Shape(Integer.parseInt(parts[0]), Integer.parseInt(parts[1])));
            }
            return shapes;
        }

        String label() {
            return "fan-out " + fanOut + ", " + dataBytes + " B of data";
        }
    }

    private final Benchmark bench;
    private final Benchmark.Options options;
    private final Database db;
    private final Publisher publisher;

    StorageRun(Benchmark bench, Benchmark.Options options, Database db, Publisher publisher) {
        this.bench = bench;
        this.options = options;
        this.db = db;
        this.publisher = publisher;
    }

    void run(Path raw) throws Exception {
        List<Shape> shapes = Shape.parse(options.storageShapes());
        StringBuilder md = new StringBuilder("# Storage, ").append(LocalDate.now()).append("\n\n")
                .append("`bench/run.sh --only storage --events ").append(options.events()).append(" --runs ").append(options.runs())
                .append(" --storage-shapes ").append(options.storageShapes()).append(" --backlog-events ").append(options.backlogEvents())
                .append("`: ingest alone (an ingest-only instance, nothing sends), ").append(Benchmark.ORGANIZATIONS)
                .append(" organizations, medians (min–max) of ").append(options.runs()).append(" runs, each on emptied tables."
                        + " Bytes on disk: what the service's tables, their TOAST and indexes grew by, per event; WAL: the"
                        + " server's WAL written during the phase, per event.\n\n")
                .append("| shape | raw broker msg/s (same message size) | ingest alone events/s | ÷ raw | bytes on disk per event"
                        + " | WAL bytes per event | target |\n|---|---:|---:|---:|---:|---:|---|\n");
        for (Shape shape : shapes) {
            Payload.dataBytes = shape.dataBytes();
            Benchmark.WEBHOOKS_PER_ORGANIZATION = shape.fanOut();
            int messageSize = Benchmark.event(0, Clock.micros()).length;
            List<Double> rawRates = new ArrayList<>();
            List<Phases.Ingest> runs = new ArrayList<>();
            for (int run = 1; run <= options.runs(); run++) {
                rawRates.add(RawBroker.receivingRate(Benchmark.AMQP_URI, options.queueType(), messageSize, Benchmark.CONFIRM_WINDOW,
                        Benchmark.PREFETCH, options.rawSeconds(), raw.resolve("perftest-storage-" + shape.fanOut() + "x"
                                + shape.dataBytes() + "-" + run + ".log")));
                publisher.delete("hookfan.bench.raw");
                runs.add(ingestAlone(shape, run, raw));
            }
            String target = shape.fanOut() == 5 && shape.dataBytes() == 4096 ? "disk ≤ 2 × 4096 + 5 × 600 = 11,192"
                    : shape.dataBytes() == 1024 ? "÷ raw ≥ 0.5" : "";
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %.2f | %s | %s | %s |%n", shape.label(), Stats.summary(rawRates, 0),
                    summary(runs, Phases.Ingest::eventsPerS), Stats.median(runs.stream().map(Phases.Ingest::eventsPerS).toList())
                            / Stats.median(rawRates), summary(runs, ingest -> ingest.storage().diskBytes()),
                    summary(runs, ingest -> ingest.storage().walBytes()), target));
        }
        Shape first = shapes.get(0);
        Payload.dataBytes = first.dataBytes();
        Benchmark.WEBHOOKS_PER_ORGANIZATION = first.fanOut();
        md.append("\n").append(purgeComparison(first, raw));
        Path file = options.results().resolve(LocalDate.now() + "-storage.md");
        Files.writeString(file, md.toString());
        Benchmark.log("Results: %s", file);
        System.out.println(md);
    }

    private Phases.Ingest ingestAlone(Shape shape, int run, Path raw) throws Exception {
        List<String> properties = new ArrayList<>(bench.serviceProperties());
        properties.add("hookfan.delivery.sending-enabled=false");
        Benchmark.log("Storage, %s, run %d", shape.label(), run);
        try (Service service = Service.start(options.jar(), properties, raw.resolve("service-storage-" + run + ".log"))) {
            bench.emptyAll();
            bench.createWebhooks();
            bench.warmUp(service.pid(), false);
            Phases.Ingest ingest = bench.ingest(ids(options.events()), Clock.micros(), "storage", false);
            bench.emptyAll();
            return ingest;
        }
    }

    /**
     * Alternating on one instance whose purge runs every second: ingest with nothing old enough to purge, then ingest
     * while the purge deletes an aged backlog of finished deliveries (their events and audit entries too), written just
     * before. Between rounds the purge is left to finish.
     */
    private String purgeComparison(Shape shape, Path raw) throws Exception {
        List<String> properties = new ArrayList<>(bench.serviceProperties());
        properties.addAll(List.of("hookfan.delivery.sending-enabled=false", "hookfan.retention.deliveries=1D",
                "hookfan.retention.audit-entries=1D", "hookfan.retention.interval=1S"));
        List<Double> without = new ArrayList<>();
        List<Double> with = new ArrayList<>();
        List<Double> purgedPerSecond = new ArrayList<>();
        List<Double> backlogLeft = new ArrayList<>();
        try (Service service = Service.start(options.jar(), properties, raw.resolve("service-storage-purge.log"))) {
            bench.emptyAll();
            bench.createWebhooks();
            bench.warmUp(service.pid(), false);
            for (int run = 1; run <= options.runs(); run++) {
                without.add(bench.ingest(ids(options.events()), Clock.micros(), "purge_idle", false).eventsPerS());
                agedBacklog(shape, options.backlogEvents());
                double purgedBefore = Service.metric("hookfan_retention_purged_total", "table=\"webhook_delivery\"");
                long start = System.nanoTime();
                with.add(bench.ingest(ids(options.events()), Clock.micros(), "purge_working", false).eventsPerS());
                double seconds = (System.nanoTime() - start) / 1e9;
                purgedPerSecond.add((Service.metric("hookfan_retention_purged_total", "table=\"webhook_delivery\"") - purgedBefore) / seconds);
                backlogLeft.add((double) db.count("select count(*) from webhook_delivery where created_at < now() - interval '1 day'"));
                Benchmark.log("  purge round %d: %.0f events/s without, %.0f with; %.0f deliveries purged/s, %.0f aged left",
                        run, without.get(run - 1), with.get(run - 1), purgedPerSecond.get(run - 1), backlogLeft.get(run - 1));
                while (db.count("select count(*) from webhook_delivery where created_at < now() - interval '1 day'") > 0) {
                    Thread.sleep(1000);
                }
            }
        }
        return String.format(Locale.ROOT, "Ingest alone (%s) with the retention purge working on an aged backlog of %d events"
                        + " (%d finished deliveries, their events and audit entries) beside ingest with nothing to purge, alternating"
                        + " on one instance (`hookfan.retention.interval=1S`), %d rounds:%n%n| figure | median (min–max) | target |%n"
                        + "|---|---|---|%n| ingest, nothing to purge, events/s | %s | |%n| ingest, purge working, events/s | %s | |%n"
                        + "| **with ÷ without** (medians) | **%.2f** | ≥ 0.9 |%n| deliveries purged per second during the phase | %s | |%n"
                        + "| aged deliveries left when the phase ended (0: the purge had finished before it) | %s | |%n",
                shape.label(), options.backlogEvents(), (long) options.backlogEvents() * shape.fanOut(), options.runs(),
                Stats.summary(without, 0), Stats.summary(with, 0), Stats.median(with) / Stats.median(without),
                Stats.summary(purgedPerSecond, 0), Stats.summary(backlogLeft, 0));
    }

    /** Finished deliveries two days old, with their events (random data of the shape's size) and audit entries. */
    private void agedBacklog(Shape shape, int events) throws Exception {
        Benchmark.log("  writing an aged backlog of %d events × %d deliveries", events, shape.fanOut());
        int chunks = Math.max(1, shape.dataBytes() / 32);
        String data = "'{\"pad\":\"' || (select string_agg(md5(random()::text || i || j), '') from generate_series(1, " + chunks
                + ") j) || '\"}'";
        db.execute("create temporary table aged as select i, md5('aged' || i) as event_id, 'bench_org_' || lpad((i % "
                + Benchmark.ORGANIZATIONS + ")::text, 2, '0') as organization_id, " + data + " as data"
                + " from generate_series(1, " + events + ") i");
        db.execute("insert into delivery_event (id, organization_id, message_id, event_type, body, deliveries, created_at)"
                + " select event_id, organization_id, 'aged-' || i, '" + Benchmark.TYPE + "', '\"type\":\"" + Benchmark.TYPE
                + "\",\"organizationId\":\"' || organization_id || '\",\"occurredAt\":null,\"messageId\":\"aged-' || i"
                + " || '\",\"data\":' || data || '}', " + shape.fanOut() + ", now() - interval '2 days' from aged");
        db.execute("insert into webhook_delivery (id, webhook_id, event_id, organization_id, status, attempts, created_at,"
                + " delivered_at, success_started_at, success_duration_ms, success_status, success_body)"
                + " select md5(event_id || w), md5('aged-webhook' || w), event_id, organization_id, 'delivered', 1,"
                + " now() - interval '2 days', now() - interval '2 days', now() - interval '2 days', 3, 200, 'ok'"
                + " from aged, generate_series(1, " + shape.fanOut() + ") w");
        db.execute("insert into audit_entry (id, organization_id, source_message_id, event_type, recorded_at, data)"
                + " select md5('audit' || i), organization_id, 'aged-' || i, '" + Benchmark.TYPE + "', now() - interval '2 days', data from aged");
        db.execute("drop table aged");
    }

    private static String[] ids(int count) {
        String[] ids = new String[count];
        for (int i = 0; i < count; i++) {
            ids[i] = UUID.randomUUID().toString();
        }
        return ids;
    }

    private static String summary(List<Phases.Ingest> runs, java.util.function.ToDoubleFunction<Phases.Ingest> figure) {
        return Stats.summary(runs.stream().map(figure::applyAsDouble).toList(), 0);
    }
}
