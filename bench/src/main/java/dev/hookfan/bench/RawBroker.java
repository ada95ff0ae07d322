package dev.hookfan.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The broker's own limit on this machine, measured by RabbitMQ's PerfTest with what Hookfan's path has: one
 * producer and one consumer, persistent messages of the event's size, publisher confirms with the same window,
 * manual acks one by one, the same prefetch and queue type.
 */
final class RawBroker {

    private static final Pattern RECEIVING = Pattern.compile("receiving rate avg: (\\d+)");

    private RawBroker() {
    }

    static double receivingRate(String uri, String queueType, int messageSize, int confirmWindow, int prefetch,
                                int seconds, Path log) throws Exception {
        String classpath = System.getProperty("java.class.path");
        List<String> command = List.of("java", "-cp", classpath, "com.rabbitmq.perf.PerfTest",
                "--uri", uri, "--producers", "1", "--consumers", "1", "--size", Integer.toString(messageSize),
                "--flag", "persistent", "--confirm", Integer.toString(confirmWindow), "--qos", Integer.toString(prefetch),
                "--queue", "hookfan.bench.raw", "--auto-delete", "false", "--queue-args", "x-queue-type=" + queueType,
                "--time", Integer.toString(seconds));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        StringBuilder output = new StringBuilder();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream()))) {
            String line;
            while ((line = lines.readLine()) != null) {
                output.append(line).append('\n');
            }
        }
        int exit = process.waitFor();
        Files.writeString(log, String.join(" ", command) + "\n" + output);
        Matcher rate = RECEIVING.matcher(output);
        if (exit != 0 || !rate.find()) {
            throw new IllegalStateException("PerfTest failed (exit " + exit + "), see " + log);
        }
        return Double.parseDouble(rate.group(1));
    }
}
