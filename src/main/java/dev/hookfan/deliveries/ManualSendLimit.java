package dev.hookfan.deliveries;

import dev.hookfan.api.RateLimited;
import jakarta.inject.Singleton;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Test sends and redeliveries an organization may ask for: a token bucket per organization, hookfan.delivery
 * .manual-sends-per-minute deep and refilled at that rate. Per instance, so N instances allow up to N times as many.
 */
@Singleton
class ManualSendLimit {

    /** Buckets kept at most; the least recently used goes first (a full bucket is the same as none). */
    static final int MAX_ORGANIZATIONS = 10_000;

    private static final class Bucket {
        double tokens;
        long refilledAtNanos;
    }

    private final double perMinute;
    private final Map<String, Bucket> buckets = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
            return size() > MAX_ORGANIZATIONS;
        }
    };

    ManualSendLimit(DeliveryConfig config) {
        this.perMinute = config.manualSendsPerMinute();
    }

    /** Takes one send from the organization's allowance, or throws 429 saying when the next one is free. */
    synchronized void take(String organizationId) {
        long now = System.nanoTime();
        Bucket bucket = buckets.computeIfAbsent(organizationId, id -> {
            Bucket fresh = new Bucket();
            fresh.tokens = perMinute;
            fresh.refilledAtNanos = now;
            return fresh;
        });
        bucket.tokens = Math.min(perMinute, bucket.tokens + (now - bucket.refilledAtNanos) * perMinute / 60e9);
        bucket.refilledAtNanos = now;
        if (bucket.tokens < 1) {
            long waitSeconds = (long) Math.ceil((1 - bucket.tokens) * 60 / perMinute);
            throw new RateLimited("manual-send-limit", "Organization " + organizationId + " may ask for "
                    + (long) perMinute + " test sends and redeliveries a minute (hookfan.delivery.manual-sends-per-minute)",
                    waitSeconds);
        }
        bucket.tokens -= 1;
    }
}
