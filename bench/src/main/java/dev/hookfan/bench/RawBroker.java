package dev.hookfan.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
    /** PerfTest's line for one second: its time, then consumer latency min/median/75th/95th/99th in microseconds. */
    private static final Pattern SECOND = Pattern.compile(
            "time (\\d+\\.\\d+) s,.*consumer latency: (\\d+)/(\\d+)/(\\d+)/(\\d+)/(\\d+)");
    /** PerfTest's own start (its JIT, the queue's first messages) fills its first seconds: seconds 1 and 2 are left out. */
    private static final double SETTLED_AFTER_S = 2.0;

    private RawBroker() {
    }

    static double receivingRate(String uri, String queueType, int messageSize, int confirmWindow, int prefetch,
                                int seconds, Path log) throws Exception {
        String output = perfTest(uri, queueType, messageSize, confirmWindow, prefetch, seconds, List.of(), log, false).output();
        Matcher rate = RECEIVING.matcher(output);
        if (!rate.find()) {
            throw new IllegalStateException("PerfTest printed no receiving rate, see " + log);
        }
        return Double.parseDouble(rate.group(1));
    }

    /**
     * The same producer and consumer held to the latency phase's rate: the broker's own publish → consume latency and
     * CPU at that rate, a part of the service's figures that no change to the service can remove. PerfTest prints
     * percentiles per second, which do not merge: answers the median over its seconds of each second's median
     * and p99, the worst second's p99, and the broker's and the machine's CPU.
     */
    static Phases.RawAtRate atRate(String uri, String queueType, int messageSize, int confirmWindow, int prefetch,
                                   int rate, int seconds, Path log) throws Exception {
        Ran ran = perfTest(uri, queueType, messageSize, confirmWindow, prefetch, seconds,
                List.of("--rate", Integer.toString(rate)), log, true);
        String output = ran.output();
        List<Double> medians = new ArrayList<>();
        List<Double> p99s = new ArrayList<>();
        Matcher second = SECOND.matcher(output);
        while (second.find()) {
            if (Double.parseDouble(second.group(1)) > SETTLED_AFTER_S) {
                medians.add(Double.parseDouble(second.group(3)) / 1000);
                p99s.add(Double.parseDouble(second.group(6)) / 1000);
            }
        }
        if (p99s.isEmpty()) {
            throw new IllegalStateException("PerfTest printed no consumer latency after its first seconds, see " + log);
        }
        // Of CpuMeter's shares, the "service" one here is PerfTest itself: only the broker's and the machine's are kept.
        return new Phases.RawAtRate(Stats.median(medians), Stats.median(p99s),
                p99s.stream().mapToDouble(Double::doubleValue).max().orElseThrow(), ran.cpu().rabbitmq(), ran.cpu().machine());
    }

    /** What PerfTest printed, and where the CPU went meanwhile (null unless metered). */
    private record Ran(String output, Phases.Cpu cpu) {
    }

    /** Runs PerfTest to its end. */
    private static Ran perfTest(String uri, String queueType, int messageSize, int confirmWindow, int prefetch,
                                int seconds, List<String> extra, Path log, boolean meterCpu) throws Exception {
        String classpath = System.getProperty("java.class.path");
        List<String> command = new ArrayList<>(List.of("java", "-cp", classpath, "com.rabbitmq.perf.PerfTest",
                "--uri", uri, "--producers", "1", "--consumers", "1", "--size", Integer.toString(messageSize),
                "--flag", "persistent", "--confirm", Integer.toString(confirmWindow), "--qos", Integer.toString(prefetch),
                "--queue", "hookfan.bench.raw", "--auto-delete", "false", "--queue-args", "x-queue-type=" + queueType,
                "--time", Integer.toString(seconds)));
        command.addAll(extra);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        CpuMeter meter = meterCpu ? CpuMeter.start(process.pid()) : null;
        Phases.Cpu cpu = null;
        StringBuilder output = new StringBuilder();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream()))) {
            String line;
            while ((line = lines.readLine()) != null) {
                output.append(line).append('\n');
                // The run is over and PerfTest still alive to be read: the CPU figures cover the run alone.
                if (meter != null && line.contains("test stopped")) {
                    cpu = meter.stop();
                    meter = null;
                }
            }
        }
        int exit = process.waitFor();
        Files.writeString(log, String.join(" ", command) + "\n" + output);
        if (exit != 0 || meter != null) {
            throw new IllegalStateException("PerfTest failed (exit " + exit + (meter != null ? ", never stopped" : "")
                    + "), see " + log);
        }
        return new Ran(output.toString(), cpu);
    }
}
