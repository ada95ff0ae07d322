package dev.hookfan.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One counter per value of one tag, each found in the registry once: on the per-event and per-send paths, finding a
 * tagged counter by name and tag on every call was a measurable share of the service's CPU (JFR, bench/run.sh).
 */
public final class TaggedCounters {

    private final MeterRegistry registry;
    private final String name;
    private final String tag;
    private final int maxValues;
    private final Map<String, Counter> byValue = new ConcurrentHashMap<>();

    /** For a tag whose values the service itself chooses. */
    public TaggedCounters(MeterRegistry registry, String name, String tag) {
        this(registry, name, tag, Integer.MAX_VALUE);
    }

    /** For a tag whose values come from outside: beyond maxValues distinct ones, the rest count as {@link #OTHER}. */
    public TaggedCounters(MeterRegistry registry, String name, String tag, int maxValues) {
        this.registry = registry;
        this.name = name;
        this.tag = tag;
        this.maxValues = maxValues;
    }

    public static final String OTHER = "other";

    public void increment(String value) {
        Counter counter = byValue.get(value);
        if (counter == null) {
            counter = admit(value);
        }
        counter.increment();
    }

    /** New values one at a time, so two consumers seeing room for one more cannot both take it. */
    private synchronized Counter admit(String value) {
        Counter counter = byValue.get(value);
        if (counter != null) {
            return counter;
        }
        String tagValue = byValue.size() < maxValues ? value : OTHER;
        return byValue.computeIfAbsent(tagValue, v -> registry.counter(name, tag, v));
    }
}
