package dev.hookfan.sending;

import dev.hookfan.batching.GroupCommit;
import dev.hookfan.deliveries.DeliveryConfig;
import dev.hookfan.metrics.TaggedCounters;
import dev.hookfan.webhooks.WebhookDirectory;
import dev.hookfan.webhooks.WebhookEndpoint;
import dev.hookfan.webhooks.WebhookTargets;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends deliveries: claims each atomically (a lease, so two instances never send one attempt twice), posts
 * the stored bytes signed, records the attempt and schedules the next. The poller below is both the retry
 * timer and the outbox sweep: a delivery whose request message was lost is still sent.
 */
@Singleton
public class DeliverySender {

    private static final Logger LOG = Logger.getLogger(DeliverySender.class);

    /** Whether the webhook is enabled, and where and how to send, come from the directory: no join, no subquery. */
    static final String CLAIM_SOME = "update webhook_delivery d set lease_until = now() + $2 * interval '1 millisecond'"
            + " where d.id = any($1) and d.status = 'pending'"
            + " and (d.attempts = 0 or d.next_attempt_at <= now()) and (d.lease_until is null or d.lease_until < now())"
            + " returning " + ClaimedDelivery.COLUMNS;
    /** A disabled webhook's deliveries wait: the poller would otherwise claim and release them on every poll. */
    private static final String CLAIM_DUE = "update webhook_delivery d set lease_until = now() + $2 * interval '1 millisecond'"
            + " where d.id in (select c.id from webhook_delivery c"
            + " join webhook cw on cw.id = c.webhook_id and cw.enabled"
            + " where c.status = 'pending' and c.next_attempt_at <= now() and (c.lease_until is null or c.lease_until < now())"
            + " order by c.next_attempt_at limit $1 for update of c skip locked)"
            + " returning " + ClaimedDelivery.COLUMNS;
    /** Requests whose claims share a statement: at most hookfan.delivery.request-concurrency are in hand. */
    static final int CLAIM_BATCH = 64;
    /** Two at a time, so a claim waits for at most one statement ahead of it. */
    static final int CLAIMS_IN_FLIGHT = 2;
    private static final String RELEASE = "update webhook_delivery set lease_until = null where id = $1";

    private final Pool pool;
    private final WebhookTargets targets;
    private final WebhookDirectory directory;
    private final dev.hookfan.webhooks.SecretCipher cipher;
    private final SubscriberClient subscribers;
    private final DeliveryConfig config;
    private final NextAttempt nextAttempt;
    private final SendPermits permits;
    private final AttemptRecorder recorder;
    private final LostRequestSweep sweep;
    private final MeterRegistry metrics;
    private final Timer sendLatency;
    private final TaggedCounters sendsByOutcome;
    private final String userAgent;
    private final long leaseMillis;
    private final GroupCommit<List<String>, List<ClaimedDelivery>> claims;

    DeliverySender(Pool pool, Vertx vertx, DeliveryConfig config, AttemptRecorder recorder, LostRequestSweep sweep,
                   MeterRegistry metrics, WebhookTargets targets, WebhookDirectory directory,
                   dev.hookfan.webhooks.SecretCipher cipher,
                   @ConfigProperty(name = "quarkus.application.version", defaultValue = "dev") String version) {
        this.pool = pool;
        this.targets = targets;
        this.directory = directory;
        this.cipher = cipher;
        this.config = config;
        this.recorder = recorder;
        this.sweep = sweep;
        this.metrics = metrics;
        this.nextAttempt = new NextAttempt(config);
        this.permits = new SendPermits(config.maxInFlight(), config.maxInFlightPerWebhook());
        this.userAgent = "Hookfan/" + version;
        // The lease outlives the longest possible attempt, so it only expires on a crash.
        this.leaseMillis = config.timeout().multipliedBy(2).plusSeconds(5).toMillis();
        this.claims = new GroupCommit<>("claims", CLAIM_BATCH, CLAIMS_IN_FLIGHT, this::claimAll);
        this.subscribers = new SubscriberClient(vertx.getDelegate(), config.maxInFlight(), config.timeout());
        metrics.gauge("hookfan.deliveries.in_flight", permits, SendPermits::inFlight);
        this.sendsByOutcome = new TaggedCounters(metrics, "hookfan.sends", "outcome");
        this.sendLatency = Timer.builder("hookfan.send.latency").publishPercentileHistogram().register(metrics);
    }

    @PreDestroy
    void close() {
        subscribers.close();
    }

    /** The fast path: sends the delivery now if nobody else holds it and it is due; false if left for later. */
    public Uni<Boolean> sendIfClaimable(String deliveryId) {
        if (!permits.tryAcquire()) {
            return Uni.createFrom().item(false);
        }
        return claimAndStart(List.of(deliveryId), 1).map(started -> started > 0);
    }

    /**
     * The fast path for one event's deliveries: waits, without blocking, for send permits (so a burst holds the
     * request queue back rather than leaving it to the poller), claims in one statement those nobody else holds and
     * that are due, and starts them. Completes once every one was started or found unclaimable; fails if no permit
     * came back within the send timeout, and the poller takes them instead.
     */
    public Uni<Integer> sendWhenPermitted(List<String> deliveryIds) {
        if (deliveryIds.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        AtomicInteger taken = new AtomicInteger();
        AtomicInteger started = new AtomicInteger();
        // One round per grant of permits, each subscribed after the last has ended: nesting them, as this did, kept
        // every round of every request in hand alive until its last, and 256 requests filled a 128 MiB heap.
        return Multi.createBy().repeating()
                .uni(() -> permits.acquireUpTo(deliveryIds.size() - taken.get())
                        .ifNoItem().after(config.timeout()).fail()
                        .chain(held -> {
                            int from = taken.getAndAdd(held);
                            return claimAndStart(deliveryIds.subList(from, from + held), held);
                        })
                        .invoke(started::addAndGet))
                .whilst(ignored -> taken.get() < deliveryIds.size())
                .collect().last()
                .replaceWith(started::get);
    }

    /** Claims and starts the deliveries that this many permits are held for; returns how many started. */
    private Uni<Integer> claimAndStart(List<String> deliveryIds, int held) {
        return claims.submit(deliveryIds)
                .onFailure().invoke(() -> permits.release(held))
                .map(claimed -> {
                    permits.release(held - claimed.size());
                    claimed.forEach(this::start);
                    return claimed.size();
                });
    }

    /** Claims for requests in hand at once, in one statement; each claimed row goes to the first request naming it. */
    private Uni<List<List<ClaimedDelivery>>> claimAll(List<List<String>> requests) {
        String[] ids = requests.stream().flatMap(List::stream).distinct().toArray(String[]::new);
        return pool.preparedQuery(CLAIM_SOME).execute(Tuple.of(ids, leaseMillis)).map(rows -> {
            Map<String, ClaimedDelivery> claimed = new HashMap<>();
            for (ClaimedDelivery delivery : claims(rows)) {
                claimed.put(delivery.id(), delivery);
            }
            List<List<ClaimedDelivery>> perRequest = new ArrayList<>(requests.size());
            for (List<String> request : requests) {
                List<ClaimedDelivery> mine = new ArrayList<>();
                for (String id : request) {
                    ClaimedDelivery delivery = claimed.remove(id);
                    if (delivery != null) {
                        mine.add(delivery);
                    }
                }
                perRequest.add(mine);
            }
            return perRequest;
        });
    }

    @Scheduled(every = "${hookfan.delivery.poll-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            delayed = "${hookfan.delivery.poll-interval}")
    Uni<Void> sendDue() {
        int room = config.sendingEnabled() ? Math.min(permits.available(), config.pollBatchSize()) : 0;
        if (room == 0) {
            return Uni.createFrom().voidItem();
        }
        // Rows of fan-outs whose request was lost become due first, so this same poll can claim them.
        return sweep.makeDue(config.pollBatchSize())
                .chain(() -> claimDue(room))
                .invoke(claimed -> claimed.forEach(this::startWithPermit))
                .onFailure().invoke(failure -> LOG.warnf("Poller could not claim due deliveries: %s", failure.toString()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    private Uni<List<ClaimedDelivery>> claimDue(int limit) {
        return pool.preparedQuery(CLAIM_DUE).execute(Tuple.of(limit, leaseMillis)).map(DeliverySender::claims);
    }

    private void startWithPermit(ClaimedDelivery claimed) {
        if (!permits.tryAcquire()) {
            release(claimed);
            return;
        }
        start(claimed);
    }

    /** Runs the attempt in the background; the caller holds a global permit, released when it ends. */
    private void start(ClaimedDelivery claimed) {
        if (!permits.tryAcquire(claimed.webhookId())) {
            permits.release();
            release(claimed);
            return;
        }
        Uni.createFrom().deferred(() -> directory.endpoint(claimed.organizationId(), claimed.webhookId()))
                .chain(endpoint -> endpoint == null
                        ? releaseNow(claimed)
                        : attempt(claimed, endpoint).chain(outcome -> recorder.record(claimed, outcome, nextAttempt)))
                .eventually(() -> {
                    permits.release(claimed.webhookId());
                    permits.release();
                })
                .subscribe().with(
                        ignored -> { },
                        failure -> LOG.errorf("Delivery %s: attempt %d could not be made or recorded, its lease will expire: %s",
                                claimed.id(), claimed.attemptNumber(), failure.toString()));
    }

    private Uni<AttemptOutcome> attempt(ClaimedDelivery claimed, WebhookEndpoint endpoint) {
        // Vetted again at every send, and the vetted address is the one connected to: DNS cannot rebind in between.
        Instant started = Instant.now();
        return Uni.createFrom().deferred(() -> targets.vet(endpoint.url()))
                .chain(target -> target.allowed()
                        ? post(claimed, endpoint, target.address())
                        : Uni.createFrom().item(new AttemptOutcome(started, 0, null, null,
                                "refused before connecting: " + target.refusal(), null)))
                // Whatever goes wrong before an answer (a header Vert.x refuses, a secret that will not open)
                // is a failed attempt on the schedule, never a claim that silently expires and repeats.
                .onFailure().recoverWithItem(failure -> new AttemptOutcome(started, 0, null, null,
                        "could not send: " + failure.getClass().getSimpleName() + ": " + failure.getMessage(), null));
    }

    private Uni<AttemptOutcome> post(ClaimedDelivery claimed, WebhookEndpoint endpoint, java.net.InetAddress address) {
        Instant started = Instant.now();
        long timestamp = started.getEpochSecond();
        long startNanos = System.nanoTime();
        List<String> secrets = endpoint.secretsAt(started);
        if (secrets.isEmpty()) {
            return Uni.createFrom().item(new AttemptOutcome(started, 0, null, null, "webhook has no valid signing secret", null));
        }
        java.net.URI uri = java.net.URI.create(endpoint.url());
        int port = dev.hookfan.webhooks.UrlPolicy.port(uri);
        MultiMap headers = HttpHeaders.headers()
                .add(HttpHeaders.CONTENT_TYPE, "application/json")
                .add(HttpHeaders.USER_AGENT, userAgent)
                .add("webhook-id", claimed.id())
                .add("webhook-timestamp", Long.toString(timestamp))
                .add("webhook-signature", Signatures.header(secrets.stream().map(cipher::open).toList(),
                        claimed.id(), timestamp, claimed.payload()))
                .add("hookfan-event-type", claimed.eventType());
        if (claimed.messageId() != null) {
            headers.add("hookfan-message-id", claimed.messageId());
        }
        if (claimed.traceparent() != null) {
            headers.add("traceparent", claimed.traceparent());
        }
        return subscribers.post(endpoint.url(), address, port, headers, claimed.payload().getBytes(StandardCharsets.UTF_8),
                        config.timeout())
                // The client's timeout restarts with every byte; this one bounds the whole attempt.
                .ifNoItem().after(config.timeout()).failWith(() -> new java.util.concurrent.TimeoutException(
                        "no complete answer within " + config.timeout()))
                .map(response -> outcome(started, startNanos, response))
                .onFailure().recoverWithItem(failure -> new AttemptOutcome(started, elapsedMs(startNanos), null, null,
                        failure.getClass().getSimpleName() + ": " + failure.getMessage(), null))
                .invoke(outcome -> {
                    sendsByOutcome.increment(outcomeClass(outcome));
                    sendLatency.record(outcome.durationMs(), TimeUnit.MILLISECONDS);
                });
    }

    private static AttemptOutcome outcome(Instant started, long startNanos, SubscriberClient.Answer answer) {
        return new AttemptOutcome(started, elapsedMs(startNanos), answer.status(), answer.body(), null,
                retryAfter(answer.status(), answer.retryAfter()));
    }

    /** Only 429 and 503 ask for a pause; the header is seconds or an HTTP date. */
    static Duration retryAfter(int status, String header) {
        if ((status != 429 && status != 503) || header == null || header.isBlank()) {
            return null;
        }
        try {
            return Duration.ofSeconds(Math.max(0, Long.parseLong(header.trim())));
        } catch (NumberFormatException notSeconds) {
            try {
                ZonedDateTime at = ZonedDateTime.parse(header.trim(), DateTimeFormatter.RFC_1123_DATE_TIME);
                Duration wait = Duration.between(Instant.now(), at.toInstant());
                return wait.isNegative() ? Duration.ZERO : wait;
            } catch (RuntimeException notADate) {
                return null;
            }
        }
    }

    private static String outcomeClass(AttemptOutcome outcome) {
        return outcome.status() == null ? "error" : (outcome.status() / 100) + "xx";
    }

    private static long elapsedMs(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    /** A webhook disabled or deleted since its delivery was requested: the delivery waits, unleased, for it. */
    private Uni<Void> releaseNow(ClaimedDelivery claimed) {
        return pool.preparedQuery(RELEASE).execute(Tuple.of(claimed.id())).replaceWithVoid();
    }

    private void release(ClaimedDelivery claimed) {
        releaseNow(claimed).subscribe().with(ignored -> { },
                failure -> LOG.debugf("Lease of %s not released, it will expire: %s", claimed.id(), failure.toString()));
    }

    private static List<ClaimedDelivery> claims(RowSet<Row> rows) {
        List<ClaimedDelivery> claimed = new ArrayList<>(rows.size());
        rows.forEach(row -> claimed.add(ClaimedDelivery.of(row)));
        return claimed;
    }
}
