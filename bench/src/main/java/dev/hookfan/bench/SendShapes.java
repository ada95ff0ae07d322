package dev.hookfan.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * The traffic shapes the send scheduler must handle, each a phase of one run against one instance, with subscribers
 * that answer after {@link #FAST_MS} (a fast endpoint over a real network) or {@link #SLOW_MS}: the load spread over
 * 100 webhooks (the shape the sender phase has always measured), a burst to 1 webhook, to 3, and a skewed load (one
 * organization with 80 % of the events and a slow subscriber, 19 with fast ones).
 */
final class SendShapes {

    static final String TYPE = "bench.shape";
    static final long FAST_MS = 15;
    static final long SLOW_MS = 2000;
    /** The targets, with the defaults (16 sends in flight per webhook). */
    static final double ONE_WEBHOOK_TARGET = 500;
    static final double QUIET_P99_TARGET_MS = 3000;

    /** One phase's figures; the latencies are those of the organizations that are not the heavy one (skewed only). */
    record Result(String phase, long deliveries, double seconds, double deliveriesPerSecond, double drainPerSecond,
                  Double quietP50Ms, Double quietP99Ms, String target) {
    }

    private final Publisher publisher;
    private final ShapedReceiver receiver;
    private final int events;
    private String heavyWebhook;

    SendShapes(Publisher publisher, ShapedReceiver receiver, int events) {
        this.publisher = publisher;
        this.receiver = receiver;
        this.events = events;
    }

    static ShapedReceiver receiver() throws Exception {
        return new ShapedReceiver(Map.of("spread", FAST_MS, "one", FAST_MS, "three", FAST_MS, "quiet", FAST_MS, "heavy", SLOW_MS));
    }

    /** Creates the webhooks of every shape; the service is empty and running. */
    void createWebhooks() throws Exception {
        for (int org = 0; org < 20; org++) {
            for (int hook = 0; hook < 5; hook++) {
                webhook("shape_spread_" + org, "/spread/" + org + "/" + hook);
            }
        }
        webhook("shape_one", "/one/0");
        for (int hook = 0; hook < 3; hook++) {
            webhook("shape_three", "/three/" + hook);
        }
        heavyWebhook = webhook("shape_heavy", "/heavy/0");
        for (int org = 0; org < 19; org++) {
            webhook("shape_quiet_" + org, "/quiet/" + org);
        }
    }

    private String webhook(String organization, String path) throws Exception {
        String created = Service.post("/organizations/" + organization + "/webhooks",
                "{\"url\":\"" + receiver.url(path) + "\",\"eventTypes\":[\"" + TYPE + "\"]}");
        java.util.regex.Matcher id = java.util.regex.Pattern.compile("\"id\":\"([0-9a-f]+)\"").matcher(created);
        return id.find() ? id.group(1) : null;
    }

    List<Result> run() throws Exception {
        Benchmark.log("  send shapes: warm-up, %d events spread over 100 webhooks, not measured", events);
        burst("warm-up", "spread", n -> "shape_spread_" + (n % 20), 5, "");
        List<Result> results = new ArrayList<>();
        results.add(burst("spread: 100 webhooks of 20 organizations", "spread", n -> "shape_spread_" + (n % 20), 5, "the reference"));
        results.add(burst("burst to 1 webhook", "one", n -> "shape_one", 1, "≥ " + (int) ONE_WEBHOOK_TARGET + "/s"));
        results.add(burst("burst to 3 webhooks", "three", n -> "shape_three", 3, "≥ 3 × the 1-webhook rate, or the machine's limit"));
        results.add(skewed());
        return results;
    }

    /** Events to the organizations named, as fast as the broker confirms; ends at the last POST. */
    private Result burst(String phase, String group, java.util.function.IntFunction<String> organization, int fanOut,
                         String target) throws Exception {
        receiver.reset();
        long deliveries = (long) events * fanOut;
        long start = Clock.micros();
        for (int i = 0; i < events; i++) {
            publisher.publish(Benchmark.EXCHANGE, TYPE, UUID.randomUUID().toString(), event(organization.apply(i), i, Clock.micros()));
        }
        publisher.awaitConfirms();
        ShapedReceiver.Group posts = receiver.group(group);
        waitUntil(posts.posts::get, deliveries);
        double seconds = (posts.lastMicros.get() - start) / 1e6;
        double drain = (deliveries - 1) / ((posts.lastMicros.get() - posts.firstMicros.get()) / 1e6);
        Result result = new Result(phase, deliveries, seconds, deliveries / seconds, drain, null, null, target);
        if (!phase.equals("warm-up")) {
            Benchmark.log("  %s: %d deliveries in %.1f s, %.0f/s from the first publish, %.0f/s from the first POST", phase,
                    deliveries, seconds, result.deliveriesPerSecond(), drain);
        }
        return result;
    }

    /**
     * One organization with 80 % of the events and a subscriber that answers after {@link #SLOW_MS}, 19 others with
     * fast ones, at a steady rate for as long as the burst phases' events last at it: how long the quiet organizations
     * wait (publish → POST). The heavy organization's backlog is then cancelled (its webhook deleted).
     */
    private Result skewed() throws Exception {
        receiver.reset();
        int rate = 500;
        long interval = TimeUnit.SECONDS.toNanos(1) / rate;
        long quietEvents = 0;
        long start = System.nanoTime();
        long startMicros = Clock.micros();
        for (int i = 0; i < events; i++) {
            long due = start + i * interval;
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            boolean heavy = i % 5 != 4;
            quietEvents += heavy ? 0 : 1;
            String organization = heavy ? "shape_heavy" : "shape_quiet_" + ((i / 5) % 19);
            publisher.publish(Benchmark.EXCHANGE, TYPE, UUID.randomUUID().toString(), event(organization, i, Clock.micros()));
        }
        publisher.awaitConfirms();
        ShapedReceiver.Group quiet = receiver.group("quiet");
        waitUntil(quiet.posts::get, quietEvents);
        double seconds = (quiet.lastMicros.get() - startMicros) / 1e6;
        long[] latencies = quiet.latencies.stream().mapToLong(Long::longValue).toArray();
        Result result = new Result("skewed (quiet organizations only): 1 organization with 80 % of " + rate + " events/s to a subscriber answering in "
                + SLOW_MS / 1000 + " s, 19 quiet ones", quietEvents, seconds, quietEvents / seconds, Double.NaN,
                Stats.percentile(latencies, 50) / 1000.0, Stats.percentile(latencies, 99) / 1000.0,
                "quiet organizations' deliveries within " + (int) (QUIET_P99_TARGET_MS / 1000) + " s of publish");
        Benchmark.log("  %s: quiet organizations' publish → POST p50 %.1f ms, p99 %.1f ms; heavy organization %d POSTs so far",
                result.phase(), result.quietP50Ms(), result.quietP99Ms(), receiver.group("heavy").posts.get());
        Service.delete("/organizations/shape_heavy/webhooks/" + heavyWebhook);
        return result;
    }

    static byte[] event(String organization, int n, long publishedMicros) {
        return ("{\"type\":\"" + TYPE + "\",\"organizationId\":\"" + organization
                + "\",\"occurredAt\":\"2026-12-06T08:00:00Z\",\"data\":" + Payload.data(n, publishedMicros) + "}")
                .getBytes(StandardCharsets.UTF_8);
    }

    static String markdown(String machine, List<Result> results, String command) {
        StringBuilder md = new StringBuilder("# Send shapes, ").append(LocalDate.now()).append("\n\n").append(machine)
                .append("\n\n`").append(command).append("`; subscribers answer after ").append(FAST_MS).append(" ms (slow: ")
                .append(SLOW_MS).append(" ms); service defaults (16 sends in flight per webhook, 64 per organization, 256 in all).\n\n")
                .append("| phase | deliveries | s | deliveries/s from the first publish | from the first POST | quiet p50 ms"
                        + " | quiet p99 ms | target |\n|---|---:|---:|---:|---:|---:|---:|---|\n");
        for (Result r : results) {
            md.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %.0f | %s | %s | %s | %s |%n", r.phase(), r.deliveries(), r.seconds(),
                    r.deliveriesPerSecond(), Double.isNaN(r.drainPerSecond()) ? "" : String.format(Locale.ROOT, "%.0f", r.drainPerSecond()),
                    r.quietP50Ms() == null ? "" : String.format(Locale.ROOT, "%.1f", r.quietP50Ms()),
                    r.quietP99Ms() == null ? "" : String.format(Locale.ROOT, "%.1f", r.quietP99Ms()), r.target()));
        }
        return md.toString();
    }

    static Path write(Path results, String markdown) throws Exception {
        Path report = results.resolve(LocalDate.now() + "-send-shapes.md");
        Files.writeString(report, markdown);
        return report;
    }

    private static void waitUntil(LongSupplier value, long target) throws InterruptedException {
        long deadline = System.nanoTime() + Benchmark.PHASE_TIMEOUT_NANOS;
        while (value.getAsLong() < target) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not reached within 15 minutes: " + value.getAsLong() + " of " + target);
            }
            Thread.sleep(100);
        }
    }
}
