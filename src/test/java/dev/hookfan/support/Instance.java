package dev.hookfan.support;

import java.io.File;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.awaitility.Awaitility.await;

/**
 * A second packaged Hookfan process on the test profile, which a test can start, kill -9 and start again. It runs
 * what the build packaged, the artifact {@code @QuarkusIntegrationTest} runs: the fast-jar, the native executable
 * ({@code -Dnative}) or the container image of it (see {@link Artifact}).
 */
public final class Instance implements AutoCloseable {

    static final Artifact ARTIFACT = Artifact.packaged();

    private final String name;
    /** The container's name, when the artifact is a container image: kill and stop go through the container runtime. */
    private String container;
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
            java.util.List<String> config = new java.util.ArrayList<>(options);
            config.addAll(java.util.List.of("-Dquarkus.profile=test",
                    "-Dquarkus.http.port=" + httpPort, "-Dquarkus.management.port=" + managementPort));
            overrides.forEach((key, value) -> config.add("-D" + key + "=" + value));
            container = "hookfan-it-" + name + "-" + java.util.UUID.randomUUID().toString().substring(0, 8);
            process = new ProcessBuilder(ARTIFACT.command(container, config))
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
        if (ARTIFACT.isContainer()) {
            // Killing the attached `podman run` would leave the container running: the runtime kills the container.
            ARTIFACT.signal(container, "KILL");
        } else {
            process.destroyForcibly();
        }
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            if (ARTIFACT.isContainer()) {
                ARTIFACT.signal(container, "TERM");
            } else {
                process.destroy();
            }
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

    /**
     * The packaged application as the build describes it in {@code target/quarkus-artifact.properties}, the file
     * {@code @QuarkusIntegrationTest} reads to choose its launcher: {@code type=jar} (path to the fast-jar's runner),
     * {@code native} (path to the executable) or {@code native-container} (the image, run with the container runtime
     * Quarkus detects, on the network Quarkus puts the tests' own container on: {@code quarkus.test.container.network},
     * {@code host} in scripts/native-test.sh, so that the container reaches PostgreSQL and RabbitMQ on localhost as the tests do).
     */
    record Artifact(String type, String path, String image, java.util.Optional<String> network) {

        static Artifact packaged() {
            java.util.Properties properties = new java.util.Properties();
            java.nio.file.Path file = java.nio.file.Path.of("target/quarkus-artifact.properties");
            try (var in = java.nio.file.Files.newInputStream(file)) {
                properties.load(in);
            } catch (java.io.IOException e) {
                throw new IllegalStateException("no " + file + ": run the *IT through Maven after the package phase", e);
            }
            return new Artifact(properties.getProperty("type"), properties.getProperty("path"),
                    properties.getProperty("metadata.container-image"),
                    org.eclipse.microprofile.config.ConfigProvider.getConfig()
                            .getOptionalValue("quarkus.test.container.network", String.class));
        }

        boolean isContainer() {
            return "native-container".equals(type);
        }

        java.util.List<String> command(String containerName, java.util.List<String> config) {
            java.util.List<String> command = new java.util.ArrayList<>();
            switch (type) {
                case "jar" -> {
                    command.add("java");
                    command.addAll(config);
                    command.addAll(java.util.List.of("-jar", "target/" + path));
                }
                case "native" -> {
                    command.add("target/" + path);
                    command.addAll(config);
                }
                case "native-container" -> {
                    command.addAll(java.util.List.of(runtime(), "run", "--rm", "-i", "--name", containerName));
                    network.ifPresent(name -> command.add("--net=" + name));
                    command.add(image);
                    command.addAll(config);
                }
                default -> throw new IllegalStateException("an instance cannot run a packaged artifact of type " + type);
            }
            return command;
        }

        void signal(String containerName, String signal) {
            try {
                new ProcessBuilder(runtime(), "kill", "--signal", signal, containerName)
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        /** podman or docker, as Quarkus' own container launcher finds it (quarkus.native.container-runtime first). */
        private static String runtime() {
            return io.quarkus.deployment.util.ContainerRuntimeUtil.detectContainerRuntime().getExecutableName();
        }
    }
}
