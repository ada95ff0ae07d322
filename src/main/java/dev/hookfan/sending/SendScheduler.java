package dev.hookfan.sending;

import dev.hookfan.deliveries.RequestedDelivery;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Decides which delivery starts next. Work waits here, in memory and in order, per webhook (a lane); a send starts
 * when the instance, the organization and the webhook each have room and the webhook's rate allows, and only then is
 * the delivery claimed. The webhook and the organization have their room back once the subscriber has answered; the
 * instance once the attempt is recorded, so recordings waiting on the database stay bounded too. Organizations take turns, and within one its webhooks take turns, so free capacity goes to
 * whoever can use it and one backlog never stands in front of another. Bounded by count: what does not fit is
 * handed back as overflow, which the caller leaves due in the database for {@link DuePoller} to bring back.
 */
final class SendScheduler {

    /** Sends at once overall, per organization and per webhook; deliveries waiting here overall and per webhook. */
    record Limits(int maxInFlight, int maxPerOrganization, int maxPerWebhook, int maxQueued, int maxQueuedPerWebhook) {
    }

    private static final class Lane {
        final String webhookId;
        final Org org;
        final ArrayDeque<String> queue = new ArrayDeque<>();
        /** Started and not yet answered: being claimed, waiting to post, or posting. */
        int inFlight;
        /** Posting: at most maxPerWebhook. */
        int posting;
        final ArrayDeque<Runnable> waitingToPost = new ArrayDeque<>();
        boolean known;
        long intervalNanos;
        long nextStartNanos;
        long lastStartNanos;
        boolean ready;
        boolean waitingForRate;
        boolean overflowed;
        boolean refilling;

        Lane(String webhookId, Org org) {
            this.webhookId = webhookId;
            this.org = org;
        }
    }

    private static final class Org {
        final String id;
        final ArrayDeque<Lane> ready = new ArrayDeque<>();
        final Map<String, Lane> lanes = new HashMap<>();
        int inFlight;
        boolean waitingForTurn;

        Org(String id) {
            this.id = id;
        }
    }

    /** Timers and the clock, so the scheduler can be tested without Vert.x. */
    interface Clock {
        long nanoTime();

        void after(long nanos, Runnable action);
    }

    private final Limits limits;
    private final Clock clock;
    private final Consumer<RequestedDelivery> starter;
    private final Map<String, Lane> lanes = new HashMap<>();
    private final Map<String, Org> orgs = new HashMap<>();
    private final ArrayDeque<Org> readyOrgs = new ArrayDeque<>();
    private final Set<String> queuedIds = new HashSet<>();
    /** Started and not yet finished: named again meanwhile, a delivery is not queued a second time. */
    private final Set<String> startedIds = new HashSet<>();
    private int inFlight;

    SendScheduler(Limits limits, Clock clock, Consumer<RequestedDelivery> starter) {
        this.limits = limits;
        this.clock = clock;
        this.starter = starter;
    }

    /** Queues what fits, in order, and starts what can start; answers what did not fit (the overflow). */
    List<RequestedDelivery> offer(List<RequestedDelivery> work) {
        List<RequestedDelivery> overflow = new ArrayList<>();
        synchronized (this) {
            for (RequestedDelivery delivery : work) {
                if (queuedIds.contains(delivery.id()) || startedIds.contains(delivery.id())) {
                    continue;
                }
                Lane lane = lane(delivery);
                if (queuedIds.size() >= limits.maxQueued() || lane.queue.size() >= limits.maxQueuedPerWebhook()) {
                    lane.overflowed = true;
                    overflow.add(delivery);
                    continue;
                }
                lane.queue.add(delivery.id());
                queuedIds.add(delivery.id());
                makeReady(lane);
            }
        }
        pump();
        return overflow;
    }

    /**
     * Completes once the delivery, claimed, may be posted: at most maxPerWebhook posts to one webhook at once. A lane
     * starts up to as many again, so the next claims run while posts are under way and each slot goes from one
     * answer straight to the next post; a claimed delivery waits here at most one post's time, well within its lease.
     */
    void whenPostable(RequestedDelivery delivery, Runnable post) {
        synchronized (this) {
            Lane lane = lanes.get(delivery.webhookId());
            if (lane != null && lane.posting >= limits.maxPerWebhook()) {
                lane.waitingToPost.add(post);
                return;
            }
            if (lane != null) {
                lane.posting++;
            }
        }
        post.run();
    }

    /**
     * A send's exchange with its subscriber ended (answered, failed, or never began; {@code posted} if it had its
     * turn to post): the webhook's and the organization's room goes to the next in line. Its room in the instance
     * is kept until {@link #finished}.
     */
    void answered(RequestedDelivery delivery, boolean posted) {
        Runnable next = null;
        synchronized (this) {
            Lane lane = lanes.get(delivery.webhookId());
            if (lane == null) {
                return;
            }
            lane.inFlight--;
            lane.org.inFlight--;
            if (posted) {
                next = lane.waitingToPost.poll();
                if (next == null) {
                    lane.posting--;
                }
            }
            makeReady(lane);
            readyAgain(lane.org);
        }
        if (next != null) {
            next.run();
        }
        pump();
    }

    /**
     * A send is over, its attempt recorded: its room in the instance goes to the next in line. Answers how many
     * deliveries to bring back from the database for its webhook now (its queue ran low after an overflow), or 0.
     */
    int finished(RequestedDelivery delivery) {
        int refill = 0;
        synchronized (this) {
            startedIds.remove(delivery.id());
            inFlight--;
            Lane lane = lanes.get(delivery.webhookId());
            if (lane != null) {
                refill = refillRoom(lane, limits.maxQueued() - queuedIds.size());
                forget(lane);
            }
        }
        pump();
        return refill;
    }

    /**
     * What the webhook's settings say, learnt at each start from the directory: its rate (deliveries per second for
     * this instance's share, 0 for none). Until the first answer a lane sends one at a time.
     */
    void rate(String webhookId, double perSecond) {
        synchronized (this) {
            Lane lane = lanes.get(webhookId);
            if (lane == null) {
                return;
            }
            long interval = perSecond > 0 ? (long) (1_000_000_000L / perSecond) : 0;
            boolean changed = !lane.known || lane.intervalNanos != interval;
            if (!lane.known && interval > 0) {
                // The lane's first send started before its rate was known: the next one keeps the interval after it.
                lane.nextStartNanos = lane.lastStartNanos + interval;
            }
            lane.known = true;
            lane.intervalNanos = interval;
            if (!changed) {
                return;
            }
            makeReady(lane);
        }
        pump();
    }

    /** The webhook is disabled or gone: its queued work leaves memory (it stays pending in the database). */
    void drop(String webhookId) {
        synchronized (this) {
            Lane lane = lanes.get(webhookId);
            if (lane == null) {
                return;
            }
            lane.queue.forEach(queuedIds::remove);
            lane.queue.clear();
            lane.overflowed = false;
            forget(lane);
        }
    }

    /** Webhooks whose due work the poller should leave alone: they have work here, or will refill themselves. */
    synchronized List<String> busyWebhooks() {
        List<String> busy = new ArrayList<>();
        lanes.values().forEach(lane -> {
            if (!lane.queue.isEmpty() || lane.overflowed || lane.posting >= limits.maxPerWebhook()) {
                busy.add(lane.webhookId);
            }
        });
        return busy;
    }

    /**
     * Lanes whose overflow should come back from the database now (their queue has run low): each is marked as
     * refilling until {@link #refilled} says how it went. Answers webhook id → room.
     */
    synchronized Map<String, Integer> dueForRefill() {
        Map<String, Integer> due = new HashMap<>();
        int room = limits.maxQueued() - queuedIds.size();
        for (Lane lane : lanes.values()) {
            int wanted = refillRoom(lane, room);
            if (wanted > 0) {
                due.put(lane.webhookId, wanted);
                room -= wanted;
            }
        }
        return due;
    }

    /** The poller found due work of these webhooks: each may have more, which it brings back itself when low. */
    synchronized void mayHaveMore(Set<String> webhookIds) {
        webhookIds.forEach(id -> {
            Lane lane = lanes.get(id);
            if (lane != null) {
                lane.overflowed = true;
            }
        });
    }

    private int refillRoom(Lane lane, int room) {
        int threshold = Math.max(limits.maxPerWebhook(), limits.maxQueuedPerWebhook() / 4);
        if (!lane.overflowed || lane.refilling || lane.queue.size() > threshold || room <= 0) {
            return 0;
        }
        lane.refilling = true;
        return Math.min(room, limits.maxQueuedPerWebhook() - lane.queue.size());
    }

    /** A refill ended; when it found less than it asked for, the database holds no more due work of the webhook. */
    void refilled(String webhookId, boolean exhausted) {
        synchronized (this) {
            Lane lane = lanes.get(webhookId);
            if (lane == null) {
                return;
            }
            lane.refilling = false;
            if (exhausted) {
                lane.overflowed = false;
            }
            forget(lane);
        }
    }

    synchronized int inFlight() {
        return inFlight;
    }

    synchronized int queued() {
        return queuedIds.size();
    }

    /** Starts every send that has room now, taking organizations, then their webhooks, in turn. */
    private void pump() {
        List<RequestedDelivery> starting = new ArrayList<>();
        synchronized (this) {
            while (inFlight < limits.maxInFlight() && !readyOrgs.isEmpty()) {
                Org org = readyOrgs.poll();
                org.waitingForTurn = false;
                Lane lane = org.ready.poll();
                lane.ready = false;
                long now = clock.nanoTime();
                if (lane.queue.isEmpty()) {
                    forget(lane);
                } else if (lane.intervalNanos > 0 && now < lane.nextStartNanos) {
                    waitForRate(lane, lane.nextStartNanos - now);
                } else {
                    starting.add(take(lane, now));
                    makeReady(lane);
                }
                readyAgain(org);
            }
        }
        starting.forEach(starter);
    }

    private RequestedDelivery take(Lane lane, long now) {
        String id = lane.queue.poll();
        queuedIds.remove(id);
        startedIds.add(id);
        lane.inFlight++;
        lane.org.inFlight++;
        inFlight++;
        lane.lastStartNanos = now;
        if (lane.intervalNanos > 0) {
            lane.nextStartNanos = Math.max(now, lane.nextStartNanos) + lane.intervalNanos;
        }
        return new RequestedDelivery(id, lane.webhookId, lane.org.id);
    }

    private void waitForRate(Lane lane, long nanos) {
        lane.waitingForRate = true;
        clock.after(nanos, () -> {
            synchronized (this) {
                lane.waitingForRate = false;
                makeReady(lane);
            }
            pump();
        });
    }

    private Lane lane(RequestedDelivery delivery) {
        return lanes.computeIfAbsent(delivery.webhookId(), id -> {
            Org org = orgs.computeIfAbsent(delivery.organizationId(), Org::new);
            Lane lane = new Lane(id, org);
            org.lanes.put(id, lane);
            return lane;
        });
    }

    private void makeReady(Lane lane) {
        int laneLimit = lane.known ? 2 * limits.maxPerWebhook() : 1;
        if (!lane.ready && !lane.waitingForRate && !lane.queue.isEmpty() && lane.inFlight < laneLimit) {
            lane.ready = true;
            lane.org.ready.add(lane);
            readyAgain(lane.org);
        }
    }

    private void readyAgain(Org org) {
        if (!org.waitingForTurn && !org.ready.isEmpty() && org.inFlight < limits.maxPerOrganization()) {
            org.waitingForTurn = true;
            readyOrgs.add(org);
        }
    }

    /** An idle lane (nothing queued, in flight, overflowed or pending) is removed, so memory follows the work. */
    private void forget(Lane lane) {
        if (lane.queue.isEmpty() && lane.inFlight == 0 && !lane.overflowed && !lane.refilling && !lane.waitingForRate
                && !lane.ready && lane.nextStartNanos <= clock.nanoTime()) {
            lanes.remove(lane.webhookId);
            lane.org.lanes.remove(lane.webhookId);
            if (lane.org.lanes.isEmpty()) {
                orgs.remove(lane.org.id);
            }
        }
    }

    /** The system's clock, with timers from the caller (Vert.x in the service). */
    static Clock systemClock(java.util.function.BiConsumer<Long, Runnable> timer) {
        return new Clock() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public void after(long nanos, Runnable action) {
                timer.accept(nanos, action);
            }
        };
    }
}
