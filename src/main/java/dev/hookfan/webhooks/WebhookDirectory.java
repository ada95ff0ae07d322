package dev.hookfan.webhooks;

import dev.hookfan.events.IntegrationEvent;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An organization's webhooks as the fan-out (who takes this event type) and the sender (where to, signed with
 * what) need them. Kept in memory per organization only while PostgreSQL's change notifications flow (see
 * {@link WebhookChangeListener}): every committed change to a webhook or its secrets drops its organization's entry
 * on every instance, so a replay costs no lookup and a claim no join. An entry is read again after
 * {@code cache-ttl} whatever the notifications say, so a change whose notification was lost is honoured by then.
 */
@Singleton
public class WebhookDirectory {

    private static final Logger LOG = Logger.getLogger(WebhookDirectory.class);
    /** Every webhook of the organization, oldest first, with the secrets that may still sign, newest first. */
    static final String ORGANIZATION_WEBHOOKS = "select w.id, w.url, w.enabled, w.event_types, w.rate_limit, w.timeout_ms,"
            + " w.headers, s.secrets, s.expires_ms"
            + " from webhook w left join lateral (select array_agg(secret order by created_at desc, id desc) as secrets,"
            + " array_agg((extract(epoch from expires_at) * 1000)::bigint order by created_at desc, id desc) as expires_ms"
            + " from webhook_secret where webhook_id = w.id and (expires_at is null or expires_at > now())) s on true"
            + " where w.organization_id = $1 order by w.created_at, w.id";

    /** One webhook, as plain data: never a managed entity outside its session. */
    record Entry(String id, boolean enabled, Set<String> eventTypes, WebhookEndpoint endpoint) {
        boolean takes(String eventType) {
            // "*" is every event the publishers send; Hookfan's own operational events go only to webhooks that name them.
            return enabled && (eventTypes.contains(eventType)
                    || eventTypes.contains(Webhook.ALL_TYPES) && !IntegrationEvent.isOperational(eventType));
        }
    }

    /** An organization's webhooks as read at a moment (System.nanoTime()). */
    private record Cached(Map<String, Entry> webhooks, long readAtNanos) {
    }

    /** A lookup under way, and the generation it started in: only callers of that same generation may share it. */
    private record Loading(long generation, Uni<Map<String, Entry>> result) {
    }

    private final Pool pool;
    private final int capacity;
    private final long ttlNanos;
    private final Map<String, Cached> byOrganization = new ConcurrentHashMap<>();
    private final Map<String, Loading> loading = new ConcurrentHashMap<>();
    /** Bumped by every drop, so a lookup that raced a change never stores what it read before the change. */
    private final AtomicLong generation = new AtomicLong();
    private volatile boolean trusted;

    WebhookDirectory(Pool pool, WebhooksConfig config, MeterRegistry metrics) {
        this.pool = pool;
        this.capacity = config.subscriptionCacheSize();
        this.ttlNanos = config.cacheTtl().toNanos();
        metrics.gauge("hookfan.webhooks.cache_trusted", this, directory -> directory.trusted ? 1 : 0);
    }

    /** Ids of the organization's enabled webhooks subscribed to the type, oldest first; a cache hit costs no query. */
    public Uni<List<String>> webhookIds(String organizationId, String eventType) {
        return webhooksOf(organizationId)
                .map(all -> all.values().stream().filter(entry -> entry.takes(eventType)).map(Entry::id).toList());
    }

    /** Where to send the webhook's deliveries; null if it is disabled or gone. */
    public Uni<WebhookEndpoint> endpoint(String organizationId, String webhookId) {
        return webhooksOf(organizationId).map(all -> {
            Entry entry = all.get(webhookId);
            return entry == null || !entry.enabled() ? null : entry.endpoint();
        });
    }

    private Uni<Map<String, Entry>> webhooksOf(String organizationId) {
        Cached cached = trusted ? byOrganization.get(organizationId) : null;
        return cached != null && System.nanoTime() - cached.readAtNanos() < ttlNanos
                ? Uni.createFrom().item(cached.webhooks())
                : load(organizationId);
    }

    /** Concurrent misses of one organization share one query (a burst of sends after a change asks once). */
    private Uni<Map<String, Entry>> load(String organizationId) {
        long seen = generation.get();
        long readAtNanos = System.nanoTime();
        AtomicReference<Loading> mine = new AtomicReference<>();
        mine.set(new Loading(seen, pool.preparedQuery(ORGANIZATION_WEBHOOKS).execute(Tuple.of(organizationId))
                .map(WebhookDirectory::entries)
                .invoke(entries -> remember(organizationId, new Cached(entries, readAtNanos), seen))
                .eventually(() -> loading.remove(organizationId, mine.get()))
                .memoize().indefinitely()));
        return loading.compute(organizationId, (key, under) -> under != null && under.generation() == seen ? under : mine.get())
                .result();
    }

    private static Map<String, Entry> entries(RowSet<Row> rows) {
        Map<String, Entry> entries = new LinkedHashMap<>();
        for (Row row : rows) {
            String[] sealed = row.getArrayOfStrings("secrets");
            Long[] expiresMs = row.getArrayOfLongs("expires_ms");
            List<WebhookEndpoint.SealedSecret> secrets = new ArrayList<>();
            for (int i = 0; sealed != null && i < sealed.length; i++) {
                secrets.add(new WebhookEndpoint.SealedSecret(sealed[i],
                        expiresMs[i] == null ? null : Instant.ofEpochMilli(expiresMs[i])));
            }
            String id = row.getString("id");
            Integer rateLimit = row.getInteger("rate_limit");
            Integer timeoutMs = row.getInteger("timeout_ms");
            entries.put(id, new Entry(id, row.getBoolean("enabled"), Set.copyOf(Arrays.asList(row.getArrayOfStrings("event_types"))),
                    new WebhookEndpoint(row.getString("url"), List.copyOf(secrets), rateLimit == null ? 0 : rateLimit,
                            timeoutMs == null ? null : java.time.Duration.ofMillis(timeoutMs),
                            WebhookHeaders.parse(row.getString("headers")))));
        }
        return entries;
    }

    private void remember(String organizationId, Cached entries, long seen) {
        if (!trusted) {
            return;
        }
        if (byOrganization.size() >= capacity && !byOrganization.containsKey(organizationId)) {
            // Full: make room from entries past their lifetime, which would be read again anyway.
            byOrganization.values().removeIf(cached -> entries.readAtNanos() - cached.readAtNanos() >= ttlNanos);
            if (byOrganization.size() >= capacity) {
                return;
            }
        }
        byOrganization.put(organizationId, entries);
        // A drop that came in between the read and the put wins.
        if (generation.get() != seen) {
            byOrganization.remove(organizationId);
        }
    }

    void changed(@Observes WebhookChanged change) {
        drop(change.organizationId());
    }

    /** An organization's webhooks or their secrets changed ("*": any organization's). */
    public void drop(String organizationId) {
        generation.incrementAndGet();
        if ("*".equals(organizationId)) {
            byOrganization.clear();
        } else {
            byOrganization.remove(organizationId);
        }
    }

    /** Notifications flow again: start from nothing, since any could have been missed. */
    void trust() {
        drop("*");
        trusted = capacity > 0;
        LOG.infof("Webhook change notifications received: webhook cache %s", trusted ? "on" : "off (size 0)");
    }

    /** Notifications may be missed from now on: look every webhook up until they flow again. */
    void distrust() {
        if (trusted) {
            LOG.warn("Webhook change notifications lost: webhook cache off until they are back");
        }
        trusted = false;
        drop("*");
    }
}
