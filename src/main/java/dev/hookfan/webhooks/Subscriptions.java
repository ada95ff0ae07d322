package dev.hookfan.webhooks;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which enabled webhooks of an organization take which event types, for the fan-out. Kept in memory per
 * organization only while PostgreSQL's change notifications flow (see {@link WebhookChangeListener}): every
 * committed change to a webhook drops its organization's entry on every instance, so a replay costs no lookup.
 */
@ApplicationScoped
public class Subscriptions {

    private static final Logger LOG = Logger.getLogger(Subscriptions.class);

    /** One webhook's subscription, as plain data: never a managed entity outside its session. */
    record Subscription(String webhookId, Set<String> eventTypes) {
        boolean takes(String eventType) {
            return eventTypes.contains(eventType) || eventTypes.contains(Webhook.ALL_TYPES);
        }
    }

    private final WebhookRepository webhooks;
    private final int capacity;
    private final Map<String, List<Subscription>> byOrganization = new ConcurrentHashMap<>();
    /** Bumped by every drop, so a lookup that raced a change never stores what it read before the change. */
    private final AtomicLong generation = new AtomicLong();
    private volatile boolean trusted;

    Subscriptions(WebhookRepository webhooks, WebhooksConfig config) {
        this.webhooks = webhooks;
        this.capacity = config.subscriptionCacheSize();
    }

    /** Ids of the organization's enabled webhooks subscribed to the type, oldest first; a cache hit costs no session. */
    public Uni<List<String>> webhookIds(String organizationId, String eventType) {
        List<Subscription> cached = trusted ? byOrganization.get(organizationId) : null;
        return (cached != null ? Uni.createFrom().item(cached) : load(organizationId))
                .map(all -> all.stream().filter(s -> s.takes(eventType)).map(Subscription::webhookId).toList());
    }

    private Uni<List<Subscription>> load(String organizationId) {
        long seen = generation.get();
        return Panache.withSession(() -> webhooks.findEnabled(organizationId))
                .map(found -> found.stream().map(w -> new Subscription(w.id, Set.copyOf(Arrays.asList(w.eventTypes)))).toList())
                .invoke(subscriptions -> remember(organizationId, subscriptions, seen));
    }

    private void remember(String organizationId, List<Subscription> subscriptions, long seen) {
        if (!trusted || byOrganization.size() >= capacity) {
            return;
        }
        byOrganization.put(organizationId, subscriptions);
        // A drop that came in between the read and the put wins.
        if (generation.get() != seen) {
            byOrganization.remove(organizationId);
        }
    }

    /** An organization's webhooks changed ("*": any organization's). */
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
        LOG.infof("Webhook change notifications received: subscription cache %s", trusted ? "on" : "off (size 0)");
    }

    /** Notifications may be missed from now on: look every subscription up until they flow again. */
    void distrust() {
        if (trusted) {
            LOG.warn("Webhook change notifications lost: subscription cache off until they are back");
        }
        trusted = false;
        drop("*");
    }

    int size() {
        return byOrganization.size();
    }
}
