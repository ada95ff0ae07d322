package dev.hookfan.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Where a phase's CPU went, from /proc: the service, PostgreSQL, RabbitMQ, this benchmark (publisher and subscriber)
 * and the whole machine, each as a share of all cores over the phase. Tells a service-bound phase from one where
 * the broker and the database fill the machine. The service's JIT compiler threads are counted apart too: while
 * they still compile, a figure measures the JVM warming up, not the service.
 */
final class CpuMeter {

    /** Clock ticks of user + system time, per part, and the machine's total over all cores. */
    private record Ticks(long service, long jit, long postgres, long rabbitmq, long bench, long busy, long total) {
    }

    private final long pid;
    private final Ticks start;

    private CpuMeter(long pid) throws IOException {
        this.pid = pid;
        this.start = read();
    }

    static CpuMeter start(long pid) throws IOException {
        return new CpuMeter(pid);
    }

    /** Each part's percent of all cores since start. */
    Phases.Cpu stop() throws IOException {
        Ticks end = read();
        double total = end.total() - start.total();
        return new Phases.Cpu(100 * (end.service() - start.service()) / total, 100 * (end.jit() - start.jit()) / total,
                100 * (end.postgres() - start.postgres()) / total, 100 * (end.rabbitmq() - start.rabbitmq()) / total,
                100 * (end.bench() - start.bench()) / total, 100 * (end.busy() - start.busy()) / total);
    }

    private Ticks read() throws IOException {
        long postgres = 0;
        long rabbitmq = 0;
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            for (Path process : processes.filter(path -> path.getFileName().toString().matches("\\d+")).toList()) {
                String stat = statOf(process);
                if (stat.contains("(postgres)")) {
                    postgres += cpuTicks(stat);
                } else if (stat.contains("(beam.smp)")) {
                    rabbitmq += cpuTicks(stat);
                }
            }
        }
        String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long total = 0;
        for (int i = 1; i < cpu.length; i++) {
            total += Long.parseLong(cpu[i]);
        }
        // idle and iowait are the machine's unused time.
        long idle = Long.parseLong(cpu[4]) + Long.parseLong(cpu[5]);
        return new Ticks(cpuTicks(statOf(Path.of("/proc/" + pid))), jitTicks(), postgres, rabbitmq,
                cpuTicks(statOf(Path.of("/proc/self"))), total - idle, total);
    }

    /** The service's C1 and C2 compiler threads ("C2 CompilerThre" once the kernel cut their names to 15 characters). */
    private long jitTicks() throws IOException {
        long ticks = 0;
        try (Stream<Path> threads = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path thread : threads.toList()) {
                String stat = statOf(thread);
                if (stat.contains(" CompilerThre")) {
                    ticks += cpuTicks(stat);
                }
            }
        }
        return ticks;
    }

    /** CPU ticks per kind of thread of a process (digits in names dropped: "vert.x-eventloop-thread-#"). */
    static java.util.Map<String, Long> threadTicks(long pid) throws IOException {
        java.util.Map<String, Long> ticks = new java.util.TreeMap<>();
        try (Stream<Path> threads = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path thread : threads.toList()) {
                String stat = statOf(thread);
                if (!stat.isEmpty()) {
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("[0-9]+", "#");
                    ticks.merge(name, cpuTicks(stat), Long::sum);
                }
            }
        }
        return ticks;
    }

    /** A process that ended between the listing and the read counts as nothing. */
    private static String statOf(Path process) {
        try {
            return Files.readString(process.resolve("stat"));
        } catch (IOException gone) {
            return "";
        }
    }

    /** utime + stime: fields 14 and 15, counted after the command name, which is in parentheses and may hold spaces. */
    private static long cpuTicks(String stat) {
        if (stat.isEmpty()) {
            return 0;
        }
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }
}
