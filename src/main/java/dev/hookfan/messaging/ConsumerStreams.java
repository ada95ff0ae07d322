package dev.hookfan.messaging;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The consumers whose stream has ended, and why: their channel may still look connected, but nothing consumes. */
@ApplicationScoped
public class ConsumerStreams {

    private final Map<String, String> ended = new ConcurrentHashMap<>();

    void ended(String channel, String why) {
        ended.put(channel, why);
    }

    Map<String, String> ended() {
        return Map.copyOf(ended);
    }
}
