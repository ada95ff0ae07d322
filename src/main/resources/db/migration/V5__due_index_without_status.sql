-- The poller's index no longer names status. With "where status = 'pending'", the planner took it for every
-- statement filtering on status, and, on statistics taken while little was pending, scanned all pending rows to
-- find a few by id: during a backlog a claim went from 0.3 to 18 ms (benchmark, pg_stat_statements, EXPLAIN).
-- Only pending deliveries have a next attempt; every other status clears it.
update webhook_delivery set next_attempt_at = null where status <> 'pending' and next_attempt_at is not null;
drop index webhook_delivery_due_idx;
create index webhook_delivery_due_idx on webhook_delivery (next_attempt_at) where next_attempt_at is not null;
