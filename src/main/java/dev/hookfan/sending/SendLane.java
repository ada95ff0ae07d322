package dev.hookfan.sending;

import dev.hookfan.deliveries.RequestedDelivery;

import java.util.ArrayDeque;

/** One webhook's work in the {@link SendScheduler}: its queue, what it has in flight, and its rate. Guarded by the scheduler. */
final class SendLane {

    final String webhookId;
    final SendTurns.Organization org;
    final ArrayDeque<String> queue = new ArrayDeque<>();
    /** Started and not yet answered: being claimed, waiting to post, or posting. */
    int inFlight;
    /** Posting: at most maxPerWebhook. */
    int posting;
    final ArrayDeque<Runnable> waitingToPost = new ArrayDeque<>();
    /** Its settings were read once: until then it sends one at a time. */
    boolean known;
    long intervalNanos;
    long nextStartNanos;
    long lastStartNanos;
    boolean ready;
    boolean waitingForRate;
    /** Some of its work was left due in the database; it brings it back itself when its queue runs low. */
    boolean overflowed;
    boolean refilling;

    SendLane(String webhookId, SendTurns.Organization org) {
        this.webhookId = webhookId;
        this.org = org;
    }

    /** Takes a posting slot if one is free and answers true; else the post waits for one. */
    boolean postOrWait(int maxPerWebhook, Runnable post) {
        if (posting >= maxPerWebhook) {
            waitingToPost.add(post);
            return false;
        }
        posting++;
        return true;
    }

    /** A send's exchange ended; if it had a posting slot, answers the post that takes it over (null: it is free). */
    Runnable answered(boolean posted) {
        inFlight--;
        org.inFlight--;
        if (!posted) {
            return null;
        }
        Runnable next = waitingToPost.poll();
        if (next == null) {
            posting--;
        }
        return next;
    }

    /** Learns the rate (deliveries per second, 0 for none); answers whether it changed. */
    boolean learnRate(double perSecond) {
        long interval = perSecond > 0 ? (long) (1_000_000_000L / perSecond) : 0;
        boolean changed = !known || intervalNanos != interval;
        if (!known && interval > 0) {
            // The lane's first send started before its rate was known: the next one keeps the interval after it.
            nextStartNanos = lastStartNanos + interval;
        }
        known = true;
        intervalNanos = interval;
        return changed;
    }

    /** Its rate holds the next start back until then; 0 when it may start now. */
    long waitNanos(long now) {
        return intervalNanos > 0 && now < nextStartNanos ? nextStartNanos - now : 0;
    }

    /** Takes the next delivery off the queue, counting it in flight here and in its organization. */
    RequestedDelivery take(long now) {
        String id = queue.poll();
        inFlight++;
        org.inFlight++;
        lastStartNanos = now;
        if (intervalNanos > 0) {
            nextStartNanos = Math.max(now, nextStartNanos) + intervalNanos;
        }
        return new RequestedDelivery(id, webhookId, org.id);
    }

    /** A refill ended; when it found less than it asked for, the database holds no more of its due work. */
    void refilled(boolean exhausted) {
        refilling = false;
        overflowed &= !exhausted;
    }

    /** Has queued work, is under its share of sends (twice the posts, so claims overlap posts) and not held back. */
    boolean mayBeReady(int maxPerWebhook) {
        int limit = known ? 2 * maxPerWebhook : 1;
        return !ready && !waitingForRate && !queue.isEmpty() && inFlight < limit;
    }

    /**
     * How many to bring back from the database now (its queue ran low after an overflow), within {@code room}; when
     * some, it is refilling until told how that went.
     */
    int startRefill(SendLimits limits, int room) {
        int threshold = Math.max(limits.maxPerWebhook(), limits.maxQueuedPerWebhook() / 4);
        if (!overflowed || refilling || queue.size() > threshold || room <= 0) {
            return 0;
        }
        refilling = true;
        return Math.min(room, limits.maxQueuedPerWebhook() - queue.size());
    }

    /** The poller should leave its due work alone: it has work here, or will refill itself. */
    boolean busy(int maxPerWebhook) {
        return !queue.isEmpty() || overflowed || posting >= maxPerWebhook;
    }

    /** Nothing queued, in flight, overflowed, pending or held back by its rate: it can leave memory. */
    boolean idle(long now) {
        return queue.isEmpty() && inFlight == 0 && !overflowed && !refilling && !waitingForRate && !ready
                && nextStartNanos <= now;
    }
}
