package dev.hookfan.support;

import java.io.File;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.awaitility.Awaitility.await;

/** A second packaged Hookfan process on the test profile, which a test can start, kill -9 and start again. */
public final class Instance implements AutoCloseable {

    private final String name;
    private final int managementPort;
    private final int httpPort;
    private final java.util.Map<String, String> overrides;
    /** Options of the process itself, such as a heap limit (-Xmx, which a native executable takes too). */
    private final java.util.List<String> options;
    private Process process;

    public Instance(String name, java.util.Map<String, String> overrides) {
        this(name, overrides, java.util.List.of());
    }

    public Instance(String name, java.util.Map<String, String> overrides, java.util.List<String> options) {
        this.name = name;
        this.overrides = overrides;
        this.options = options;
        this.managementPort = freePort();
        this.httpPort = freePort();
    }

    public Instance start() {
        launch();
        awaitReady(Duration.ofSeconds(60));
        return this;
    }

    /** Starts the process without waiting for it to be ready (start two, then await both). */
    public Instance launch() {
        try {
            java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("java"));
            command.addAll(options);
            command.addAll(java.util.List.of("-Dquarkus.profile=test",
                    "-Dquarkus.http.port=" + httpPort, "-Dquarkus.management.port=" + managementPort));
            overrides.forEach((key, value) -> command.add("-D" + key + "=" + value));
            command.addAll(java.util.List.of("-jar", "target/quarkus-app/quarkus-run.jar"));
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log()))
                    .start();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return this;
    }

    public void awaitReady(Duration timeout) {
        await().atMost(timeout).pollInterval(Duration.ofMillis(200)).until(() -> status("/q/health/ready") == 200);
    }

    /** Whether the instance answers ready within the time, without failing the test when it does not. */
    public boolean becomesReady(Duration timeout) {
        try {
            awaitReady(timeout);
            return true;
        } catch (org.awaitility.core.ConditionTimeoutException notReady) {
            return false;
        }
    }

    public int status(String path) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    /** The body of a GET on the management port (metrics, health). */
    public String get(String path) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).body();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Where the log ends now, to read what the instance writes after this point. */
    public long logSize() {
        return log().length();
    }

    public String logSince(long offset) {
        try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(log(), "r")) {
            file.seek(Math.min(offset, file.length()));
            byte[] bytes = new byte[(int) (file.length() - file.getFilePointer())];
            file.readFully(bytes);
            return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private File log() {
        return new File("target/" + name + ".log");
    }

    public boolean running() {
        return process != null && process.isAlive();
    }

    /** SIGKILL: no shutdown hook, no ack, no lease released. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.destroy();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
