package dev.hookfan.metrics;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TaggedCountersTest {

    @Test
    void should_count_each_tag_value_on_its_own_counter_in_the_registry() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        TaggedCounters sends = new TaggedCounters(registry, "hookfan.sends", "outcome");

        sends.increment("2xx");
        sends.increment("2xx");
        sends.increment("5xx");

        assertEquals(2.0, registry.get("hookfan.sends").tag("outcome", "2xx").counter().count());
        assertEquals(1.0, registry.get("hookfan.sends").tag("outcome", "5xx").counter().count());
        assertEquals(2, registry.get("hookfan.sends").counters().size());
    }

    @Test
    void should_never_tag_more_than_the_cap_however_many_threads_bring_new_values_at_once() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        TaggedCounters consumed = new TaggedCounters(registry, "hookfan.events.consumed", "type", 10);
        int threads = 8;
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            java.util.List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int n = 0; n < 2000; n++) {
                        consumed.increment("type" + thread + "." + n);
                    }
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> future : done) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(11, registry.get("hookfan.events.consumed").counters().size(), "10 values and other");
        assertEquals(threads * 2000.0, registry.get("hookfan.events.consumed").counters().stream().mapToDouble(c -> c.count()).sum());
    }
}
