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
}
