package dev.hookfan.sending;

import dev.hookfan.deliveries.RequestedDelivery;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SendSchedulerTest {

    /** A clock the test moves by hand, with its timers. */
    static final class ManualClock implements SendClock {
        long now = 1_000_000_000L;
        final TreeMap<Long, List<Runnable>> timers = new TreeMap<>();

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void after(long nanos, Runnable action) {
            timers.computeIfAbsent(now + nanos, at -> new ArrayList<>()).add(action);
        }

        void advance(long nanos) {
            now += nanos;
            while (!timers.isEmpty() && timers.firstKey() <= now) {
                timers.pollFirstEntry().getValue().forEach(Runnable::run);
            }
        }
    }

    final ManualClock clock = new ManualClock();
    final List<RequestedDelivery> started = new ArrayList<>();

    SendScheduler scheduler(int overall, int perOrganization, int perWebhook, int queued, int queuedPerWebhook) {
        return new SendScheduler(new SendLimits(overall, perOrganization, perWebhook, queued, queuedPerWebhook),
                clock, started::add);
    }

    /** The subscriber answered and the attempt was recorded. */
    static int done(SendScheduler scheduler, RequestedDelivery delivery) {
        scheduler.answered(delivery, false);
        return scheduler.finished(delivery);
    }

    static List<RequestedDelivery> work(String organization, String webhook, int count) {
        return IntStream.range(0, count).mapToObj(i -> new RequestedDelivery(webhook + "-" + i, webhook, organization)).toList();
    }

    @Test
    void should_start_a_webhooks_backlog_in_order_claiming_as_many_ahead_as_it_may_post() {
        SendScheduler scheduler = scheduler(256, 64, 16, 1000, 1000);
        scheduler.offer(work("org", "w", 100));
        // Until the webhook's settings are known, one at a time.
        assertEquals(1, started.size());
        scheduler.rate("w", 0);
        assertEquals(32, started.size(), "16 posting and 16 being claimed meanwhile");
        assertEquals(IntStream.range(0, 32).mapToObj(i -> "w-" + i).toList(), started.stream().map(RequestedDelivery::id).toList());
        done(scheduler, started.get(0));
        assertEquals(33, started.size());
        assertEquals("w-32", started.get(32).id());
        assertEquals(32, scheduler.inFlight());
        assertEquals(100 - 33, scheduler.queued());
    }

    @Test
    void should_let_at_most_the_webhooks_limit_post_at_once_and_the_next_post_as_one_answers() {
        SendScheduler scheduler = scheduler(256, 64, 2, 1000, 1000);
        scheduler.offer(work("org", "w", 10));
        scheduler.rate("w", 0);
        assertEquals(4, started.size());
        List<String> posting = new ArrayList<>();
        started.forEach(delivery -> scheduler.whenPostable(delivery, () -> posting.add(delivery.id())));
        assertEquals(List.of("w-0", "w-1"), posting);
        scheduler.answered(started.get(0), true);
        assertEquals(List.of("w-0", "w-1", "w-2"), posting, "the first claimed one waiting posts as soon as one answers");
        assertEquals(5, started.size(), "and the next one starts its claim");
        assertEquals(List.of("w"), scheduler.busyWebhooks());
    }

    @Test
    void should_give_the_webhook_its_room_back_at_the_answer_and_the_instance_at_the_record() {
        SendScheduler scheduler = scheduler(3, 64, 1, 1000, 1000);
        scheduler.offer(work("org", "w", 4));
        scheduler.rate("w", 0);
        assertEquals(2, started.size());
        scheduler.answered(started.get(0), false);
        assertEquals(3, started.size(), "the next send to the webhook starts while the first is being recorded");
        scheduler.answered(started.get(1), false);
        assertEquals(3, started.size(), "three attempts being recorded or under way hold the instance's three places");
        scheduler.finished(started.get(0));
        assertEquals(4, started.size());
        assertEquals(3, scheduler.inFlight());
    }

    @Test
    void should_give_another_organization_room_at_once_while_one_floods_many_webhooks() {
        SendScheduler scheduler = scheduler(256, 64, 16, 100_000, 10_000);
        for (int w = 0; w < 16; w++) {
            scheduler.offer(work("flood", "slow" + w, 400));
            scheduler.rate("slow" + w, 0);
        }
        assertEquals(64, started.size(), "the flooding organization holds its own limit, not every send");
        scheduler.offer(work("quiet", "fast", 1));
        assertEquals("fast-0", started.get(64).id(), "the quiet organization's delivery starts without waiting");
    }

    @Test
    void should_let_organizations_take_turns_when_the_instance_is_full() {
        SendScheduler scheduler = scheduler(2, 2, 2, 1000, 1000);
        scheduler.offer(work("a", "wa", 10));
        scheduler.rate("wa", 0);
        scheduler.offer(work("b", "wb", 10));
        scheduler.rate("wb", 0);
        assertEquals(List.of("wa-0", "wa-1"), started.stream().map(RequestedDelivery::id).toList());
        done(scheduler, started.get(0));
        done(scheduler, started.get(1));
        assertEquals(List.of("wb-0", "wa-2"), started.subList(2, 4).stream().map(RequestedDelivery::id).toList(),
                "the organization that waited goes first, then they alternate");
    }

    @Test
    void should_queue_each_delivery_once_and_hand_back_what_does_not_fit() {
        SendScheduler scheduler = scheduler(1, 1, 1, 1000, 5);
        scheduler.offer(work("org", "w", 3));
        List<RequestedDelivery> overflow = scheduler.offer(work("org", "w", 10));
        // w-0 started, w-1 and w-2 queued and named again (skipped), w-3 to w-5 fill the queue to 5, the rest overflow.
        assertEquals(List.of("w-6", "w-7", "w-8", "w-9"), overflow.stream().map(RequestedDelivery::id).toList());
        assertEquals(5, scheduler.queued());
        assertTrue(scheduler.busyWebhooks().contains("w"));
    }

    @Test
    void should_ask_for_the_overflow_back_once_the_queue_runs_low() {
        SendScheduler scheduler = scheduler(4, 4, 4, 1000, 8);
        scheduler.offer(work("org", "w", 20));
        scheduler.rate("w", 0);
        int refill = 0;
        while (refill == 0 && !started.isEmpty()) {
            refill = done(scheduler, started.remove(0));
        }
        assertTrue(refill > 0, "a refill is asked for");
        assertEquals(Map.of(), scheduler.dueForRefill(), "one refill at a time");
        scheduler.refilled("w", true);
        assertTrue(scheduler.dueForRefill().isEmpty(), "nothing more in the database");
    }

    @Test
    void should_start_a_rate_limited_webhooks_deliveries_one_interval_apart() {
        SendScheduler scheduler = scheduler(256, 64, 16, 1000, 1000);
        scheduler.offer(work("org", "w", 5));
        scheduler.rate("w", 10);
        assertEquals(1, started.size());
        done(scheduler, started.get(0));
        assertEquals(1, started.size(), "the next waits for its interval even with room");
        clock.advance(99_000_000L);
        assertEquals(1, started.size());
        clock.advance(1_000_000L);
        assertEquals(2, started.size());
        clock.advance(100_000_000L);
        clock.advance(100_000_000L);
        clock.advance(100_000_000L);
        assertEquals(5, started.size());
    }

    @Test
    void should_forget_a_disabled_webhooks_queue_and_idle_lanes() {
        SendScheduler scheduler = scheduler(256, 64, 1, 1000, 1000);
        scheduler.offer(work("org", "w", 10));
        scheduler.drop("w");
        assertEquals(0, scheduler.queued());
        done(scheduler, started.get(0));
        assertEquals(1, started.size());
        assertEquals(List.of(), scheduler.busyWebhooks());
    }

    @Test
    void should_keep_a_caller_waiting_for_room_while_the_instance_is_full_and_let_it_go_once_a_send_ends() {
        SendScheduler scheduler = scheduler(2, 2, 2, 1000, 1000);
        scheduler.offer(work("org", "w", 2));
        scheduler.rate("w", 0);
        assertEquals(2, started.size());
        List<String> let = new ArrayList<>();
        scheduler.whenRoom(() -> let.add("first"));
        scheduler.whenRoom(() -> let.add("second"));
        assertEquals(List.of(), let, "no room: nothing could start, so the callers wait");
        assertEquals(2, scheduler.inFlight(), "the instance is full");
        done(scheduler, started.get(0));
        assertEquals(List.of("first", "second"), let);
        scheduler.whenRoom(() -> let.add("at once"));
        assertEquals("at once", let.get(2), "with room, none waits");
    }

    @Test
    void should_let_waiting_callers_go_as_a_send_ends_before_queued_work_takes_the_room() {
        SendScheduler scheduler = scheduler(1, 1, 1, 1000, 1000);
        scheduler.offer(work("org", "w", 2));
        List<Integer> startedWhenLet = new ArrayList<>();
        scheduler.whenRoom(() -> startedWhenLet.add(started.size()));
        done(scheduler, started.get(0));
        // Let go first, so a request for another organization is read and queued before the room is given away.
        assertEquals(List.of(1), startedWhenLet);
        assertEquals(2, started.size(), "then the queued delivery took the room");
    }

    @Test
    void should_budget_swept_work_by_what_could_start_soon_counting_a_deep_queue_only_up_to_its_own_rounds() {
        SendScheduler scheduler = scheduler(4, 4, 2, 100_000, 100_000);
        int rounds = InstanceRoom.SWEEP_ROUNDS;
        assertEquals(rounds * 4, scheduler.sweepBudget(), "empty: as many rounds of sends as it may run");
        scheduler.offer(work("org", "quiet", 3));
        assertEquals(rounds * 4 - 2, scheduler.sweepBudget(), "one started, two queued");
        scheduler.offer(work("org", "hot", 10_000));
        // The hot lane counts for its own rounds (2 a round), not for its 10,000: the others' lost requests are still found.
        long held = 2 + Math.min(10_000 - 1, rounds * 2L);
        assertEquals(Math.max(0, rounds * 4 - held), scheduler.sweepBudget());
        scheduler.rate("quiet", 0);
        scheduler.rate("hot", 0);
        assertEquals(4, scheduler.inFlight(), "the instance is full");
        assertEquals(0, scheduler.sweepBudget(), "full: nothing swept now could start");
    }
}
