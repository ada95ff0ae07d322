-- A fan-out's rows are sent on its delivery request; one row here per fan-out is the safety net should that request
-- be lost. Once due_at has passed, the poller makes the rows it names that are still pending due (LostRequestSweep).
-- So a fresh delivery has no next_attempt_at and no entry in the due index, and its first successful attempt
-- changes no indexed column: a heap-only update, without new entries in the primary key and the webhook's index.
create table delivery_sweep (
    id            bigserial      primary key,
    delivery_ids  varchar(32)[]  not null,
    due_at        timestamptz    not null,
    created_at    timestamptz    not null default now()
);

create index delivery_sweep_due_idx on delivery_sweep (due_at);
