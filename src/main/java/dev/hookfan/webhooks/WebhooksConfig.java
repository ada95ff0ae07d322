package dev.hookfan.webhooks;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

@ConfigMapping(prefix = "hookfan.webhooks")
public interface WebhooksConfig {

    /** Webhooks one organization may have, unless its entitlements say otherwise. */
    @WithDefault("100")
    int maxPerOrganization();

    /** How long a rotated-out secret keeps signing, so subscribers can switch without losing deliveries. */
    @WithDefault("24H")
    Duration secretRotationGrace();

    /** Lets webhooks reach loopback, private and other internal addresses: for trusted targets and tests only. */
    @WithDefault("false")
    boolean allowPrivateAddresses();

    /** Internal ranges webhooks may reach although they are blocked by default, e.g. 10.20.0.0/16. */
    Optional<List<String>> allowedCidrs();

    /** Organizations whose webhooks the fan-out and the sender keep in memory (dropped on every change); 0 turns it off. */
    @WithDefault("10000")
    int subscriptionCacheSize();

    /** The longest a cached organization's webhooks are used before they are read again, even with no change notified. */
    @WithDefault("30S")
    Duration cacheTtl();

    /**
     * How often each instance sends its change listener a NOTIFY of its own; heard nothing for two and a half periods,
     * it stops trusting the cache and connects the listener again (a connection a NAT dropped without a word).
     */
    @WithDefault("10S")
    Duration listenerHeartbeat();

    /**
     * Where the change listener connects, if not the reactive datasource's URL: LISTEN needs a session of its own, so
     * point it past a transaction-mode pooler (PgBouncer) straight at PostgreSQL. TLS settings are the datasource's.
     */
    Optional<String> listenerUrl();
}
