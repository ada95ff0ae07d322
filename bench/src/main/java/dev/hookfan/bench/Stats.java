package dev.hookfan.bench;

import java.util.Arrays;
import java.util.List;

/** Median, min and max over runs; percentiles over samples. */
final class Stats {

    private Stats() {
    }

    static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** "median (min–max)" with the given number of decimals. */
    static String summary(List<Double> values, int decimals) {
        String format = "%." + decimals + "f";
        double min = values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double max = values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        return String.format(format, median(values)) + " (" + String.format(format, min) + "–" + String.format(format, max) + ")";
    }

    /** The nearest-rank percentile of the samples, p in (0, 100]. */
    static long percentile(long[] samples, double p) {
        if (samples.length == 0) {
            return -1;
        }
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
