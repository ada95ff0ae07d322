package dev.hookfan.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The packaged service (the fast-jar in target/quarkus-app, or the native executable target/*-runner), started as a
 * user would start it, with a few -D overrides.
 */
final class Service implements AutoCloseable {

    static final int HTTP_PORT = 18080;
    static final int MANAGEMENT_PORT = 19000;
    /**
     * The JVM as the JVM image runs it under the README's Deployment (a 512 MiB memory limit): the options the base
     * image's run-java.sh derives from the Dockerfile's JAVA_MAX_MEM_RATIO, GC_* and JAVA_OPTS_APPEND, in its order, and
     * MaxRAM for the limit, since on this host the JVM would size itself for all the machine's memory.
     */
    static final List<String> CONTAINER_JVM_OPTIONS = List.of("-XX:MaxRAM=512m", "-XX:MaxRAMPercentage=50.0",
            "-XX:+UseSerialGC", "-XX:NewRatio=1", "-XX:MinHeapFreeRatio=40", "-XX:MaxHeapFreeRatio=70", "-XX:GCTimeRatio=4",
            "-XX:AdaptiveSizePolicyWeight=90", "-XX:+ExitOnOutOfMemoryError", "-XX:TrimNativeHeapInterval=1000");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Process process;
    final long startupMillis;

    private Service(Process process, long startupMillis) {
        this.process = process;
        this.startupMillis = startupMillis;
    }

    /** The native executable under the same limit: the heap the JVM gets there (half of 512 MiB), no more. */
    static final List<String> CONTAINER_NATIVE_OPTIONS = List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError");

    /**
     * Starts the jar (a path ending in .jar) or the native executable and returns once /q/health/ready answers 200;
     * the time from spawn to that is the start-up time.
     */
    static Service start(Path artifact, List<String> properties, Path log) throws Exception {
        boolean jar = artifact.toString().endsWith(".jar");
        List<String> command = new ArrayList<>();
        if (jar) {
            command.add("java");
            command.addAll(CONTAINER_JVM_OPTIONS);
        } else {
            command.add(artifact.toString());
            command.addAll(CONTAINER_NATIVE_OPTIONS);
        }
        // For profiling, e.g. HOOKFAN_BENCH_JVM_OPTS="-XX:StartFlightRecording=filename=bench.jfr,settings=profile".
        String jvmOptions = System.getenv().getOrDefault("HOOKFAN_BENCH_JVM_OPTS", "").trim();
        if (jar && !jvmOptions.isEmpty()) {
            command.addAll(List.of(jvmOptions.split("\\s+")));
        }
        properties.forEach(property -> command.add("-D" + property));
        command.addAll(List.of("-Dquarkus.http.port=" + HTTP_PORT, "-Dquarkus.management.port=" + MANAGEMENT_PORT));
        if (jar) {
            command.addAll(List.of("-jar", artifact.toString()));
        }
        Files.createDirectories(log.getParent());
        if (status("/q/health/ready") != -1) {
            throw new IllegalStateException("something already answers on port " + MANAGEMENT_PORT + ": stop it first");
        }
        long spawned = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = spawned + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the service exited with " + process.exitValue() + ", see " + log);
            }
            if (status("/q/health/ready") == 200) {
                return new Service(process, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - spawned));
            }
            Thread.sleep(20);
        }
        process.destroyForcibly();
        throw new IllegalStateException("the service was not ready within 120 s, see " + log);
    }

    static int status(String managementPath) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + MANAGEMENT_PORT + managementPath))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception notYet) {
            return -1;
        }
    }

    /** POSTs JSON to the API and returns the body; fails unless the answer is 2xx. */
    static String post(String path, String json) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + HTTP_PORT + path))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException("POST " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    /** DELETEs a resource of the API; fails unless the answer is 2xx. */
    static void delete(String path) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + HTTP_PORT + path))
                .DELETE().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException("DELETE " + path + " answered " + response.statusCode() + ": " + response.body());
        }
    }

    /** The sum of a Prometheus counter over all its label sets. */
    static double metric(String name) throws Exception {
        return metric(name, "");
    }

    /** The sum of the series of this metric whose labels contain the text. */
    static double metric(String name, String labels) throws Exception {
        // Prometheus' text format: the OpenMetrics default carries exemplars after the value once tracing is on.
        String text = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + MANAGEMENT_PORT + "/q/metrics"))
                        .header("Accept", "text/plain; version=0.0.4").build(),
                HttpResponse.BodyHandlers.ofString()).body();
        double sum = 0;
        for (String line : text.split("\n")) {
            if ((line.startsWith(name + "{") || line.startsWith(name + " ")) && line.contains(labels)) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    long pid() {
        return process.pid();
    }

    /** Resident memory now (VmRSS) or at its peak so far (VmHWM), in MiB. */
    double residentMiB(String field) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
            }
        }
        throw new IllegalStateException(field + " not in /proc/" + process.pid() + "/status");
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(40, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
