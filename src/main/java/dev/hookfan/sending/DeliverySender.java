package dev.hookfan.sending;

import dev.hookfan.batching.CallerContext;
import dev.hookfan.deliveries.DeliveryConfig;
import dev.hookfan.deliveries.RequestedDelivery;
import dev.hookfan.metrics.TaggedCounters;
import dev.hookfan.webhooks.SecretCipher;
import dev.hookfan.webhooks.UrlPolicy;
import dev.hookfan.webhooks.WebhookDirectory;
import dev.hookfan.webhooks.WebhookEndpoint;
import dev.hookfan.webhooks.WebhookTargets;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.mutiny.core.Vertx;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends deliveries, one attempt as typed stages: the {@link SendScheduler} says which starts next; then
 * endpoint (the webhook's settings, from the directory) → {@link Claim} (a lease) → signed request → POST
 * ({@link SubscriberClient.Answer}) → {@link AttemptOutcome} → record ({@link AttemptRecorder}).
 * Requests from the fast path and work the {@link DuePoller} finds both go through the scheduler.
 */
@Singleton
public class DeliverySender {

    private static final Logger LOG = Logger.getLogger(DeliverySender.class);

    private final DeliveryClaims claims;
    private final WebhookDirectory directory;
    private final WebhookTargets targets;
    private final SecretCipher cipher;
    private final SubscriberClient subscribers;
    private final AttemptRecorder recorder;
    private final SendingInstances instances;
    private final DeliveryConfig config;
    private final NextAttempt nextAttempt;
    private final SendScheduler scheduler;
    private final Timer sendLatency;
    private final TaggedCounters sendsByOutcome;
    private final String userAgent;
    private final AttemptTraces traces;

    DeliverySender(DeliveryClaims claims, Vertx vertx, DeliveryConfig config, AttemptRecorder recorder,
                   MeterRegistry metrics, WebhookTargets targets, WebhookDirectory directory, SecretCipher cipher,
                   SendingInstances instances, AttemptTraces traces,
                   @ConfigProperty(name = "quarkus.application.version") String version) {
        this.traces = traces;
        this.claims = claims;
        this.directory = directory;
        this.targets = targets;
        this.cipher = cipher;
        this.recorder = recorder;
        this.instances = instances;
        this.config = config;
        this.nextAttempt = new NextAttempt(config);
        this.userAgent = "Hookfan/" + version;
        this.scheduler = new SendScheduler(new SendLimits(config.maxInFlight(), config.maxInFlightPerOrganization(),
                config.maxInFlightPerWebhook(), config.maxQueued(), config.maxQueuedPerWebhook()),
                SendClock.system((nanos, action) -> vertx.setTimer(Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos)),
                        id -> action.run())),
                this::start);
        this.subscribers = new SubscriberClient(vertx.getDelegate(), config.maxInFlight(), config.timeout());
        metrics.gauge("hookfan.deliveries.in_flight", scheduler, SendScheduler::inFlight);
        metrics.gauge("hookfan.deliveries.queued", scheduler, SendScheduler::queued);
        this.sendsByOutcome = new TaggedCounters(metrics, "hookfan.sends", "outcome");
        this.sendLatency = Timer.builder("hookfan.send.latency").publishPercentileHistogram().register(metrics);
    }

    @PreDestroy
    void close() {
        subscribers.close();
    }

    /**
     * The fast path: queues the deliveries in the scheduler, which starts them as room allows. Completes once they
     * are queued; what does not fit in memory is left due in the database for its webhook to bring back.
     */
    public Uni<Void> requested(List<RequestedDelivery> deliveries) {
        List<RequestedDelivery> overflow = scheduler.offer(deliveries);
        return overflow.isEmpty() ? Uni.createFrom().voidItem() : claims.makeDue(overflow);
    }

    /**
     * Completes, on the caller's context, once a send could start in this instance. A delivery request waits for it
     * before it is read, so while every send is taken (subscribers in an outage) requests stay in the broker instead
     * of filling memory and the event loops; with room, none waits.
     */
    public Uni<Void> room() {
        return CallerContext.resumeOn(Uni.createFrom().emitter(emitter -> scheduler.whenRoom(() -> emitter.complete(null))));
    }

    SendScheduler scheduler() {
        return scheduler;
    }

    /** Brings back up to this many of the webhook's due deliveries, in order, into its queue. */
    Uni<Void> refill(String webhookId, int room) {
        return claims.dueOf(webhookId, room)
                .invoke(found -> {
                    scheduler.offer(found);
                    scheduler.refilled(webhookId, found.size() < room);
                })
                .onFailure().invoke(failure -> scheduler.refilled(webhookId, false))
                .replaceWithVoid();
    }

    /** One attempt, in the background; the scheduler's room for it is given back when it ends, whatever happens. */
    private void start(RequestedDelivery work) {
        traces.start(() -> run(work));
    }

    private void run(RequestedDelivery work) {
        claim(work)
                .chain(claim -> claim == null
                        ? Uni.createFrom().voidItem()
                        : traces.deliver(claim.delivery(), trace -> send(work, claim, trace)))
                .onFailure().invoke(failure -> LOG.errorf("Delivery %s: attempt could not be made or recorded, its lease"
                        + " will expire: %s", work.id(), failure.toString()))
                .onFailure().recoverWithNull()
                .subscribe().with(ignored -> finished(work));
    }

    /** A claimed delivery and where to send it. */
    private record Claim(ClaimedDelivery delivery, WebhookEndpoint endpoint) {
    }

    /**
     * The webhook's endpoint, then the claim; null when there is nothing to send (the webhook is disabled or gone, the
     * delivery not claimable), and then, as on a failure, the webhook's room is given back at once.
     */
    private Uni<Claim> claim(RequestedDelivery work) {
        return Uni.createFrom().deferred(() -> directory.endpoint(work.organizationId(), work.webhookId()))
                .chain(endpoint -> {
                    if (endpoint == null) {
                        // Disabled or deleted: its work waits, pending, in the database.
                        scheduler.drop(work.webhookId());
                        return Uni.createFrom().nullItem();
                    }
                    scheduler.rate(work.webhookId(), endpoint.rateLimit() / (double) Math.max(1, instances.count()));
                    return claims.claim(work.id()).map(claimed -> claimed == null ? null : new Claim(claimed, endpoint));
                })
                .onItemOrFailure().invoke((claim, failure) -> {
                    if (claim == null) {
                        scheduler.answered(work, false);
                    }
                });
    }

    /** Waits for the webhook's turn to post, posts, gives the webhook its room back once answered, then records. */
    private Uni<Void> send(RequestedDelivery work, Claim claim, Context trace) {
        return postable(work)
                .chain(() -> attempt(claim.delivery(), claim.endpoint(), trace))
                .eventually(() -> scheduler.answered(work, true))
                .chain(outcome -> recorder.record(claim.delivery(), outcome));
    }

    /** Completes, on a Vert.x context, once the webhook has room for one more post. */
    private Uni<Void> postable(RequestedDelivery work) {
        return Uni.createFrom().emitter(emitter -> scheduler.whenPostable(work, () -> emitter.complete(null)));
    }

    private void finished(RequestedDelivery work) {
        int refill = scheduler.finished(work);
        if (refill > 0) {
            refill(work.webhookId(), refill).subscribe().with(ignored -> { }, failure -> { });
        }
    }

    /**
     * Vets the address (again at every send: the vetted address is the one connected to, so DNS cannot rebind in
     * between), signs and posts, all within the webhook's timeout: a slow DNS answer is the tenant's to give.
     */
    private Uni<AttemptOutcome> attempt(ClaimedDelivery claimed, WebhookEndpoint endpoint, Context trace) {
        Instant started = Instant.now();
        long startNanos = System.nanoTime();
        Duration timeout = endpoint.timeoutWithin(config.timeout());
        return Uni.createFrom().deferred(() -> targets.vet(endpoint.url()))
                .chain(target -> target.allowed()
                        ? post(claimed, endpoint, target.address(), timeout, trace)
                        : Uni.createFrom().item(refused(claimed, target, started, startNanos)))
                .ifNoItem().after(timeout).failWith(() -> new TimeoutException("no complete answer within " + timeout))
                // Whatever goes wrong before an answer (a header Vert.x refuses, a secret that will not open, the
                // timeout) is a failed attempt on the schedule, never a claim that silently expires and repeats.
                .onFailure().recoverWithItem(failure -> notAnswered(claimed, started, startNanos,
                        failure.getClass().getSimpleName() + ": " + failure.getMessage()))
                .invoke(outcome -> {
                    sendsByOutcome.increment(outcome.statusClass());
                    sendLatency.record(outcome.durationMs(), TimeUnit.MILLISECONDS);
                });
    }

    private Uni<AttemptOutcome> post(ClaimedDelivery claimed, WebhookEndpoint endpoint, InetAddress address, Duration timeout,
                                     Context trace) {
        Instant started = Instant.now();
        long startNanos = System.nanoTime();
        if (claimed.eventBody() == null) {
            return Uni.createFrom().item(notAnswered(claimed, started, startNanos,
                    "the event this delivery sends is missing from delivery_event"));
        }
        SignedRequest request = SignedRequest.of(claimed, endpoint, started,
                sealed -> cipher.open(claimed.webhookId(), sealed), userAgent);
        if (request == null) {
            return Uni.createFrom().item(notAnswered(claimed, started, startNanos, "webhook has no valid signing secret"));
        }
        MultiMap headers = HttpHeaders.headers();
        request.headers().forEach(headers::add);
        URI url = URI.create(endpoint.url());
        return traces.post(trace, url, address, headers::set, () -> subscribers.post(endpoint.url(), address,
                        UrlPolicy.port(url), headers, request.body(), timeout))
                .map(answer -> AttemptOutcome.answered(answer, started, elapsedMs(startNanos), claimed.attemptNumber(), nextAttempt));
    }

    /** The tenant reads the generic reason in the delivery's error; the address it resolved to stays in the log. */
    private AttemptOutcome refused(ClaimedDelivery claimed, WebhookTargets.Target target, Instant started, long startNanos) {
        LOG.infof("Delivery %s: not sent, %s", claimed.id(), target.refusal());
        return notAnswered(claimed, started, startNanos, "refused before connecting: " + WebhookTargets.REFUSED);
    }

    private AttemptOutcome notAnswered(ClaimedDelivery claimed, Instant started, long startNanos, String error) {
        return AttemptOutcome.failed(new AttemptFailure.Unanswered(error), null, started, elapsedMs(startNanos),
                claimed.attemptNumber(), nextAttempt);
    }

    private static long elapsedMs(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }
}
