package dev.hookfan.support;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.eclipse.microprofile.config.ConfigProvider;

/** rabbitmqctl on the test vhost, as an operator sets policies: as root, or through sudo -n (never prompts). */
public final class Rabbitmqctl {

    private Rabbitmqctl() {
    }

    public static String vhost() {
        return ConfigProvider.getConfig().getOptionalValue("rabbitmq-virtual-host", String.class).orElse("/");
    }

    /** A policy on the test vhost's queues (set_policy returns once the queues it applies to carry it). */
    public static void setPolicy(String name, String pattern, String definition) {
        run("set_policy", "-p", vhost(), "--apply-to", "queues", "--priority", "100", name, pattern, definition);
    }

    /** Whether this user may run it: as root, or with passwordless sudo for it (FaultSuiteIT asks the same). */
    public static synchronized boolean usable() {
        if (usable == null) {
            try {
                run("-q", "ping");
                usable = true;
            } catch (IllegalStateException e) {
                usable = false;
            }
        }
        return usable;
    }

    private static Boolean usable;

    /** Clears it if it is set. */
    public static void clearPolicy(String name) {
        if (run("list_policies", "-p", vhost(), "-q").lines().anyMatch(line -> line.contains("\t" + name + "\t"))) {
            run("clear_policy", "-p", vhost(), name);
        }
    }

    static String run(String... args) {
        List<String> command = new ArrayList<>();
        if (!"0".equals(uid())) {
            command.addAll(List.of("sudo", "-n"));
        }
        command.add(Stream.of("/usr/sbin/rabbitmqctl", "/usr/bin/rabbitmqctl", "/sbin/rabbitmqctl")
                .filter(file -> Files.isExecutable(Path.of(file))).findFirst().orElse("rabbitmqctl"));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed (it needs root or passwordless sudo): " + out);
            }
            return out;
        } catch (java.io.IOException | InterruptedException e) {
            throw new IllegalStateException(String.join(" ", command) + " could not run", e);
        }
    }

    private static String uid() {
        try {
            Process process = new ProcessBuilder("id", "-u").start();
            return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
