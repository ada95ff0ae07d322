package dev.hookfan.messaging;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.smallrye.reactive.messaging.memory.InMemoryConnector;

import java.util.Map;

/**
 * Both consumers fed through SmallRye's in-memory connector, one copy of the events channel; publishing (copies,
 * delivery requests) still goes to the real broker. One profile for every such test, so Quarkus starts once for them.
 * Not InMemoryConnector.switchIncomingChannelsToInMemory: its system properties would outlive this profile and
 * switch the channels of every later test in the JVM. One send at a time in the instance, so a test can fill it.
 */
public class InMemoryChannels implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "mp.messaging.incoming." + ConsumerStart.EVENTS + ".connector", InMemoryConnector.CONNECTOR,
                "mp.messaging.incoming." + ConsumerStart.DELIVERIES + ".connector", InMemoryConnector.CONNECTOR,
                "hookfan.messaging.concurrency", "1",
                "hookfan.delivery.max-in-flight", "1");
    }
}
