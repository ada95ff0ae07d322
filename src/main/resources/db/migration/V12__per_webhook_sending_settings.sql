-- What a subscriber's owner may set per webhook: a send rate, a shorter timeout, and extra request headers.
alter table webhook
    add column rate_limit integer check (rate_limit > 0),
    add column timeout_ms integer check (timeout_ms > 0),
    add column headers    text;

-- A webhook's due deliveries in order, for the scheduler to refill a webhook's queue from what overflowed it.
-- Only rows with a next attempt are in it (retries, swept or overflowed rows), so a fresh delivery sent on the fast
-- path never enters it and its success stays a heap-only update.
create index webhook_delivery_webhook_due_idx on webhook_delivery (webhook_id, next_attempt_at)
    where next_attempt_at is not null;
