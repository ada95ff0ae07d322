package dev.hookfan.deliveries;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;

@ConfigMapping(prefix = "hookfan.delivery")
public interface DeliveryConfig {

    /**
     * false makes an ingest-only instance: it writes deliveries and publishes their requests, but neither consumes
     * the requests nor polls; instances with true send them. Ingest and sending then scale apart.
     */
    @WithDefault("true")
    boolean sendingEnabled();

    /** A send that has no 2xx answer by then is a failed attempt. */
    @WithDefault("15S")
    Duration timeout();

    /** Pauses between attempts; after the last one the delivery is failed. */
    @WithDefault("5S,5M,30M,2H,5H,10H,10H")
    List<Duration> retrySchedule();

    /** Each pause is spread by up to ± this fraction, so failures do not come back in lockstep. */
    @WithDefault("0.2")
    double jitter();

    /** How often the poller looks for due deliveries (retries, and any whose request message was lost). */
    @WithDefault("1S")
    Duration pollInterval();

    /** How many due deliveries the poller claims at once, and how many due sweep rows (one per fan-out) it sweeps. */
    @WithDefault("100")
    int pollBatchSize();

    /** How long a new delivery is left to the fast path before the poller may take it. */
    @WithDefault("5S")
    Duration sweepGrace();

    /** webhook.delivery_requested messages handled at once; their claims share statements. */
    @WithDefault("128")
    int requestConcurrency();

    /** Sends at once, overall. */
    @WithDefault("256")
    int maxInFlight();

    /** Sends at once to one webhook, so one slow subscriber cannot starve the others. */
    @WithDefault("16")
    int maxInFlightPerWebhook();

    /** Sends at once for one organization, so one tenant's slow subscribers cannot hold every send. */
    @WithDefault("64")
    int maxInFlightPerOrganization();

    /** Deliveries waiting in this instance for room to start, in order per webhook; the rest wait in the database. */
    @WithDefault("100000")
    int maxQueued();

    /** Deliveries waiting in this instance for one webhook; beyond, its backlog is brought back from the database as it drains. */
    @WithDefault("10000")
    int maxQueuedPerWebhook();

    /** Test sends and redeliveries one organization may ask for per minute (429 with Retry-After beyond). */
    @WithDefault("60")
    int manualSendsPerMinute();

    /** A webhook whose deliveries have all failed for this long is disabled. */
    @WithDefault("5D")
    Duration disableAfter();

    @WithDefault("true")
    boolean autoDisable();
}
