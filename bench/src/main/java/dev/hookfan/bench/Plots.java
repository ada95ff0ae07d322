package dev.hookfan.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Draws a results file's figures as two SVG charts beside it: throughput per phase against the raw broker, and
 * latency percentiles (log scale). Read from the file's "Every run" tables, so any results file can be redrawn:
 * {@code java -cp bench/target/classes dev.hookfan.bench.Plots bench/results/<file>.md}.
 */
final class Plots {

    /** A figure drawn as one bar per artifact: the median, with the runs' min–max as a whisker. */
    private record Figure(String key, String label) {
    }

    private static final List<Figure> THROUGHPUT = List.of(
            new Figure("ingest_alone_events_per_s", "ingest alone, events/s"),
            new Figure("ingest_events_per_s", "ingest while sending, events/s"),
            new Figure("replay_events_per_s", "replay, events/s"),
            new Figure("sender_deliveries_per_s", "sender alone, deliveries/s"));
    private static final List<Figure> LATENCY = List.of(
            new Figure("raw_latency_p50_ms", "raw broker p50, ms"),
            new Figure("raw_latency_p99_ms", "raw broker p99, ms"),
            new Figure("latency_persisted_p50_ms", "publish → row p50, ms"),
            new Figure("latency_persisted_p99_ms", "publish → row p99, ms"),
            new Figure("latency_post_p50_ms", "publish → POST p50, ms"),
            new Figure("latency_post_p99_ms", "publish → POST p99, ms"));
    private static final String[] COLOURS = {"#3b6ea5", "#d98b2b", "#5a9e5a", "#a5473b", "#7b5aa6"};
    private static final Pattern SECTION = Pattern.compile("^### Every run, (.+)$");
    private static final Pattern RAW = Pattern.compile("^Raw broker runs \\(msg/s\\): \\[(.*)]$");

    /** Runs' values of each figure, by artifact, and the raw broker's own runs. */
    record Results(Map<String, Map<String, double[]>> byArtifact, double[] raw) {
    }

    public static void main(String[] args) throws IOException {
        for (String file : args) {
            List<Path> written = write(Path.of(file));
            System.out.println("plots: " + written);
        }
    }

    static List<Path> write(Path results) throws IOException {
        Results read = read(Files.readAllLines(results));
        String base = results.getFileName().toString().replaceFirst("\\.md$", "");
        Path throughput = results.resolveSibling(base + "-throughput.svg");
        Path latency = results.resolveSibling(base + "-latency.svg");
        Map<String, Map<String, double[]>> withRaw = new LinkedHashMap<>(read.byArtifact());
        Files.writeString(throughput, chart("Events and deliveries per second (median of runs, whiskers min–max)",
                THROUGHPUT, read.byArtifact(), read.raw(), false));
        Files.writeString(latency, chart("Latency at the latency phase's offered rate, ms (log scale)",
                LATENCY, withRaw, null, true));
        return List.of(throughput, latency);
    }

    static Results read(List<String> lines) {
        Map<String, Map<String, double[]>> byArtifact = new LinkedHashMap<>();
        double[] raw = new double[0];
        Map<String, double[]> current = null;
        for (String line : lines) {
            Matcher section = SECTION.matcher(line);
            Matcher rawRuns = RAW.matcher(line);
            if (section.matches()) {
                current = new LinkedHashMap<>();
                byArtifact.put(section.group(1), current);
            } else if (rawRuns.matches()) {
                raw = Arrays.stream(rawRuns.group(1).split(",")).map(String::trim).filter(s -> !s.isEmpty())
                        .mapToDouble(Double::parseDouble).toArray();
            } else if (line.startsWith("## ")) {
                current = null;
            } else if (current != null && line.startsWith("| ") && !line.startsWith("| figure")) {
                String[] cells = line.substring(1, line.length() - 1).split("\\|");
                current.put(cells[0].trim(), Arrays.stream(cells).skip(1).map(String::trim)
                        .mapToDouble(Double::parseDouble).toArray());
            }
        }
        return new Results(byArtifact, raw);
    }

    private static String chart(String title, List<Figure> figures, Map<String, Map<String, double[]>> byArtifact,
                                double[] raw, boolean logScale) {
        List<String> artifacts = new ArrayList<>(byArtifact.keySet());
        int barHeight = 14;
        int groupHeight = barHeight * artifacts.size() + 14;
        int left = 210;
        int width = 760;
        int plotWidth = width - left - 90;
        int top = 48 + (raw != null && raw.length > 0 ? groupHeight : 0);
        int height = top + groupHeight * figures.size() + 44 + 16 * artifacts.size();
        double max = raw == null || raw.length == 0 ? 0 : Arrays.stream(raw).max().orElse(0);
        double min = Double.MAX_VALUE;
        for (Figure figure : figures) {
            for (String artifact : artifacts) {
                for (double value : byArtifact.get(artifact).getOrDefault(figure.key(), new double[0])) {
                    max = Math.max(max, value);
                    min = Math.min(min, value);
                }
            }
        }
        double low = logScale ? Math.pow(10, Math.floor(Math.log10(Math.max(min, 0.1)))) : 0;
        double high = logScale ? Math.pow(10, Math.ceil(Math.log10(max))) : max * 1.08;
        DoubleUnaryOperator x = logScale
                ? value -> left + plotWidth * (Math.log10(Math.max(value, low)) - Math.log10(low)) / (Math.log10(high) - Math.log10(low))
                : value -> left + plotWidth * value / high;
        StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">%n"
                        + "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n<text x=\"10\" y=\"22\" font-size=\"14\" font-weight=\"bold\">%s</text>%n",
                width, height, escape(title)));
        int bottom = top + groupHeight * figures.size();
        for (double tick : ticks(low, high, logScale)) {
            double tx = x.applyAsDouble(tick);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"40\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%s</text>%n", tx, tx, bottom, tx, bottom + 12, format(tick)));
        }
        int y = 48;
        if (raw != null && raw.length > 0) {
            svg.append(group("raw broker (PerfTest), msg/s", y, List.of(raw), List.of("#888888"), x, barHeight));
            y += groupHeight;
        }
        for (Figure figure : figures) {
            List<double[]> values = artifacts.stream().map(a -> byArtifact.get(a).getOrDefault(figure.key(), new double[0])).toList();
            svg.append(group(figure.label(), y, values, Arrays.asList(COLOURS), x, barHeight));
            y += groupHeight;
        }
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"40\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>%n", left, left, y));
        y += 14;
        for (int i = 0; i < artifacts.size(); i++) {
            int ly = y + 16 + 16 * i;
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"%d\">%s</text>%n", left, ly - 10, COLOURS[i % COLOURS.length], left + 18, ly, escape(artifacts.get(i))));
        }
        return svg.append("</svg>\n").toString();
    }

    private static String group(String label, int y, List<double[]> runs, List<String> colours, DoubleUnaryOperator x, int barHeight) {
        StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
                "<text x=\"10\" y=\"%d\">%s</text>%n", y + barHeight - 2, escape(label)));
        for (int i = 0; i < runs.size(); i++) {
            double[] values = runs.get(i);
            if (values.length == 0) {
                continue;
            }
            double[] sorted = values.clone();
            Arrays.sort(sorted);
            double median = sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                    : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
            int barY = y + i * barHeight;
            double start = x.applyAsDouble(0);
            svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>%n",
                    start, barY, Math.max(1, x.applyAsDouble(median) - start), barHeight - 3, colours.get(i % colours.size())));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>%n",
                    x.applyAsDouble(sorted[0]), barY + (barHeight - 3) / 2.0, x.applyAsDouble(sorted[sorted.length - 1]), barY + (barHeight - 3) / 2.0));
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\">%s</text>%n",
                    x.applyAsDouble(sorted[sorted.length - 1]) + 4, barY + barHeight - 4, format(median)));
        }
        return svg.toString();
    }

    /** Powers of ten on a log axis; five round steps on a linear one. */
    private static List<Double> ticks(double low, double high, boolean logScale) {
        List<Double> ticks = new ArrayList<>();
        if (logScale) {
            for (double tick = low; tick <= high * 1.0001; tick *= 10) {
                ticks.add(tick);
            }
            return ticks;
        }
        double step = Math.pow(10, Math.floor(Math.log10(high / 5)));
        step = high / step > 25 ? step * 5 : high / step > 10 ? step * 2 : step;
        for (double tick = step; tick <= high; tick += step) {
            ticks.add(tick);
        }
        return ticks;
    }

    private static String format(double value) {
        return value >= 100 ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.1f", value);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
