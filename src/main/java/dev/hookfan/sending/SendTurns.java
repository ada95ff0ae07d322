package dev.hookfan.sending;

import dev.hookfan.deliveries.RequestedDelivery;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The lanes, by webhook and organization, and whose turn it is: organizations with a ready lane wait in one line, and
 * within each its ready lanes in another, so one backlog never stands in front of another. Guarded by the
 * {@link SendScheduler}.
 */
final class SendTurns {

    static final class Organization {
        final String id;
        final ArrayDeque<SendLane> ready = new ArrayDeque<>();
        final Map<String, SendLane> lanes = new HashMap<>();
        int inFlight;
        boolean waitingForTurn;

        Organization(String id) {
            this.id = id;
        }
    }

    final Map<String, SendLane> lanes = new HashMap<>();
    private final Map<String, Organization> orgs = new HashMap<>();
    private final int maxPerOrganization;
    private final ArrayDeque<Organization> ready = new ArrayDeque<>();

    SendTurns(int maxPerOrganization) {
        this.maxPerOrganization = maxPerOrganization;
    }

    /** The lane joins its organization's line, and the organization the line of organizations if it has room. */
    void ready(SendLane lane) {
        lane.ready = true;
        lane.org.ready.add(lane);
        again(lane.org);
    }

    /** The organization takes its place in line again if it has a ready lane and room for another send. */
    void again(Organization org) {
        if (!org.waitingForTurn && !org.ready.isEmpty() && org.inFlight < maxPerOrganization) {
            org.waitingForTurn = true;
            ready.add(org);
        }
    }

    boolean isEmpty() {
        return ready.isEmpty();
    }

    /** The next organization's next lane, out of both lines. */
    SendLane next() {
        Organization org = ready.poll();
        org.waitingForTurn = false;
        SendLane lane = org.ready.poll();
        lane.ready = false;
        return lane;
    }

    /** The delivery's webhook's lane, made on first use. */
    SendLane lane(RequestedDelivery delivery) {
        return lanes.computeIfAbsent(delivery.webhookId(), id -> {
            Organization org = orgs.computeIfAbsent(delivery.organizationId(), Organization::new);
            SendLane lane = new SendLane(id, org);
            org.lanes.put(id, lane);
            return lane;
        });
    }

    /** Webhooks whose due work the poller should leave alone. */
    List<String> busy(int maxPerWebhook) {
        return lanes.values().stream().filter(lane -> lane.busy(maxPerWebhook)).map(lane -> lane.webhookId).toList();
    }

    /** Lanes whose overflow should come back now, within {@code room}, each marked as refilling: webhook id → room. */
    Map<String, Integer> startRefills(SendLimits limits, int room) {
        Map<String, Integer> due = new HashMap<>();
        for (SendLane lane : lanes.values()) {
            int wanted = lane.startRefill(limits, room);
            if (wanted > 0) {
                due.put(lane.webhookId, wanted);
                room -= wanted;
            }
        }
        return due;
    }

    /** Queued work, each lane's counted up to {@code perLane}. */
    long queuedWithin(int perLane) {
        long queued = 0;
        for (SendLane lane : lanes.values()) {
            queued += Math.min(lane.queue.size(), perLane);
        }
        return queued;
    }

    /** An idle lane is removed, and an organization without lanes, so memory follows the work. */
    void forget(SendLane lane, long now) {
        if (lane.idle(now)) {
            lanes.remove(lane.webhookId);
            lane.org.lanes.remove(lane.webhookId);
            if (lane.org.lanes.isEmpty()) {
                orgs.remove(lane.org.id);
            }
        }
    }
}
