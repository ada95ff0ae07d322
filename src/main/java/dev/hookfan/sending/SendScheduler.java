package dev.hookfan.sending;

import dev.hookfan.deliveries.RequestedDelivery;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Decides which delivery starts next. Work waits here, in memory and in order, per webhook (a lane); a send starts
 * when the instance, the organization and the webhook each have room and the webhook's rate allows, and only then is
 * the delivery claimed. The webhook and the organization have their room back once the subscriber has answered; the
 * instance once the attempt is recorded, so recordings waiting on the database stay bounded too. Whose turn it is,
 * {@link SendTurns} says. Bounded by count: what does not fit is handed back as overflow, which the caller leaves
 * due in the database for {@link DuePoller} to bring back.
 */
final class SendScheduler {

    private final SendLimits limits;
    private final SendClock clock;
    private final Consumer<RequestedDelivery> starter;
    private final SendTurns turns;
    private final Set<String> queuedIds = new HashSet<>();
    /** Started and not yet finished: named again meanwhile, a delivery is not queued a second time. */
    private final Set<String> startedIds = new HashSet<>();
    private final InstanceRoom room;

    SendScheduler(SendLimits limits, SendClock clock, Consumer<RequestedDelivery> starter) {
        this.limits = limits;
        this.turns = new SendTurns(limits.maxPerOrganization());
        this.room = new InstanceRoom(limits.maxInFlight());
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
                SendLane lane = turns.lane(delivery);
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
     * Runs {@code post} once the claimed delivery may be posted (maxPerWebhook posts per webhook). A lane starts as
     * many again, so claims run while posts are under way; a claimed delivery waits at most one post (its lease is
     * far longer).
     */
    void whenPostable(RequestedDelivery delivery, Runnable post) {
        synchronized (this) {
            SendLane lane = turns.lanes.get(delivery.webhookId());
            if (lane != null && !lane.postOrWait(limits.maxPerWebhook(), post)) {
                return;
            }
        }
        post.run();
    }

    /**
     * A send's exchange ended (answered, failed, or never began; {@code posted} if it had its turn to post): the
     * webhook's and the organization's room goes to the next in line; the instance's is kept until {@link #finished}.
     */
    void answered(RequestedDelivery delivery, boolean posted) {
        Runnable next = null;
        synchronized (this) {
            SendLane lane = turns.lanes.get(delivery.webhookId());
            if (lane == null) {
                return;
            }
            next = lane.answered(posted);
            makeReady(lane);
            turns.again(lane.org);
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
        List<Runnable> released;
        synchronized (this) {
            startedIds.remove(delivery.id());
            room.inFlight--;
            SendLane lane = turns.lanes.get(delivery.webhookId());
            if (lane != null) {
                refill = lane.startRefill(limits, limits.maxQueued() - queuedIds.size());
                forget(lane);
            }
            released = room.released();
        }
        // Waiting requests go first, so another organization's queued work cannot keep them unread while it fills the room.
        released.forEach(Runnable::run);
        pump();
        return refill;
    }

    /** The webhook's rate, learnt at each start (this instance's share, 0 for none); until known, one at a time. */
    void rate(String webhookId, double perSecond) {
        synchronized (this) {
            SendLane lane = turns.lanes.get(webhookId);
            if (lane == null || !lane.learnRate(perSecond)) {
                return;
            }
            makeReady(lane);
        }
        pump();
    }

    /** The webhook is disabled or gone: its queued work leaves memory (it stays pending in the database). */
    void drop(String webhookId) {
        synchronized (this) {
            SendLane lane = turns.lanes.get(webhookId);
            if (lane == null) {
                return;
            }
            queuedIds.removeAll(lane.queue);
            lane.queue.clear();
            lane.overflowed = false;
            forget(lane);
        }
    }

    /** Webhooks whose due work the poller should leave alone: they have work here, or will refill themselves. */
    synchronized List<String> busyWebhooks() {
        return turns.busy(limits.maxPerWebhook());
    }

    /** Lanes whose overflow should come back now, each refilling until {@link #refilled}: webhook id → room. */
    synchronized Map<String, Integer> dueForRefill() {
        return turns.startRefills(limits, limits.maxQueued() - queuedIds.size());
    }

    /** The poller found due work of these webhooks: each may have more, which it brings back itself when low. */
    synchronized void mayHaveMore(Set<String> webhookIds) {
        webhookIds.stream().map(turns.lanes::get).filter(Objects::nonNull).forEach(lane -> lane.overflowed = true);
    }

    /** A refill ended; when it found less than it asked for, the database holds no more due work of the webhook. */
    synchronized void refilled(String webhookId, boolean exhausted) {
        SendLane lane = turns.lanes.get(webhookId);
        if (lane != null) {
            lane.refilled(exhausted);
            forget(lane);
        }
    }

    /** Runs {@code then} once one more send could start in this instance: at once if it could now. */
    void whenRoom(Runnable then) {
        synchronized (this) {
            if (room.full()) {
                room.await(then);
                return;
            }
        }
        then.run();
    }

    /** How many swept deliveries could start soon: a lane's queue counts up to as many rounds of its own sends. */
    synchronized int sweepBudget() {
        return room.sweepBudget(turns.queuedWithin(InstanceRoom.SWEEP_ROUNDS * limits.maxPerWebhook()));
    }

    synchronized int inFlight() {
        return room.inFlight;
    }

    synchronized int queued() {
        return queuedIds.size();
    }

    /** Starts every send that has room now, taking organizations, then their webhooks, in turn. */
    private void pump() {
        List<RequestedDelivery> starting = new ArrayList<>();
        synchronized (this) {
            while (!room.full() && !turns.isEmpty()) {
                SendLane lane = turns.next();
                long now = clock.nanoTime();
                long wait = lane.waitNanos(now);
                if (lane.queue.isEmpty()) {
                    forget(lane);
                } else if (wait > 0) {
                    waitForRate(lane, wait);
                } else {
                    RequestedDelivery next = lane.take(now);
                    queuedIds.remove(next.id());
                    startedIds.add(next.id());
                    room.inFlight++;
                    starting.add(next);
                    makeReady(lane);
                }
                turns.again(lane.org);
            }
        }
        starting.forEach(starter);
    }

    private void waitForRate(SendLane lane, long nanos) {
        lane.waitingForRate = true;
        clock.after(nanos, () -> {
            synchronized (this) {
                lane.waitingForRate = false;
                makeReady(lane);
            }
            pump();
        });
    }

    private void makeReady(SendLane lane) {
        if (lane.mayBeReady(limits.maxPerWebhook())) {
            turns.ready(lane);
        }
    }

    private void forget(SendLane lane) {
        turns.forget(lane, clock.nanoTime());
    }
}
