package dev.hookfan.sending;

import io.smallrye.mutiny.subscription.Cancellable;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class SendPermitsTest {

    @Test
    void should_grant_a_waiting_request_the_permits_that_come_back() throws Exception {
        SendPermits permits = new SendPermits(3, 16);
        assertEquals(3, permits.tryAcquireUpTo(5));

        CompletableFuture<Integer> waiting = permits.acquireUpTo(5).subscribeAsCompletionStage();
        assertFalse(waiting.isDone());
        permits.release(2);

        assertEquals(2, waiting.get(1, TimeUnit.SECONDS));
        assertEquals(0, permits.available());
    }

    @Test
    void should_serve_waiters_in_the_order_they_asked() throws Exception {
        SendPermits permits = new SendPermits(1, 16);
        assertEquals(1, permits.tryAcquireUpTo(1));
        CompletableFuture<Integer> first = permits.acquireUpTo(1).subscribeAsCompletionStage();
        CompletableFuture<Integer> second = permits.acquireUpTo(1).subscribeAsCompletionStage();

        permits.release(1);
        assertEquals(1, first.get(1, TimeUnit.SECONDS));
        assertFalse(second.isDone());
        permits.release(1);
        assertEquals(1, second.get(1, TimeUnit.SECONDS));
    }

    @Test
    void should_give_no_permit_to_a_waiter_that_gave_up() {
        SendPermits permits = new SendPermits(1, 16);
        assertEquals(1, permits.tryAcquireUpTo(1));
        Cancellable waiting = permits.acquireUpTo(1).subscribe().with(granted -> { });
        waiting.cancel();

        permits.release(1);
        assertEquals(1, permits.available());
        assertEquals(0, permits.inFlight());
    }
}
