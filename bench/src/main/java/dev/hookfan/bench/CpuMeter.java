package dev.hookfan.bench;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a phase's CPU went, from /proc: the service's own time and the whole machine's busy time, each as a share of
 * all cores over the phase. Tells a service-bound phase from one where the broker and PostgreSQL fill the machine.
 */
final class CpuMeter {

    /** Clock ticks: the service's user + system time, and the machine's busy and total time over all cores. */
    private record Ticks(long service, long busy, long total) {
    }

    private final long pid;
    private final Ticks start;

    private CpuMeter(long pid) throws Exception {
        this.pid = pid;
        this.start = read();
    }

    static CpuMeter start(long pid) throws Exception {
        return new CpuMeter(pid);
    }

    /** Puts prefix_service_cpu_pct and prefix_machine_cpu_pct: percent of all cores since start. */
    void stop(String prefix, java.util.Map<String, Double> figures) throws Exception {
        Ticks end = read();
        double total = end.total() - start.total();
        figures.put(prefix + "_service_cpu_pct", 100 * (end.service() - start.service()) / total);
        figures.put(prefix + "_machine_cpu_pct", 100 * (end.busy() - start.busy()) / total);
    }

    private Ticks read() throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are 14 and 15.
        String[] process = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long total = 0;
        for (int i = 1; i < cpu.length; i++) {
            total += Long.parseLong(cpu[i]);
        }
        // idle and iowait are the machine's unused time.
        long idle = Long.parseLong(cpu[4]) + Long.parseLong(cpu[5]);
        return new Ticks(Long.parseLong(process[11]) + Long.parseLong(process[12]), total - idle, total);
    }
}
