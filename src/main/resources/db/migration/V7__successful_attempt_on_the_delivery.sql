-- The attempt that delivers a delivery is kept on the delivery's own row, not in delivery_attempt: for the common
-- first-try success that saves a row, its two index entries and the foreign-key lock, about half the sender's WAL.
alter table webhook_delivery
    add column success_started_at  timestamptz,
    add column success_duration_ms integer,
    add column success_status      integer,
    add column success_body        varchar(1024);

-- A delivered delivery that any writer reopens (redeliver, an operator's psql) first moves its success into
-- delivery_attempt, so the row only ever holds the latest success and no attempt is lost.
create function hookfan_delivery_reopened() returns trigger language plpgsql as $$
begin
    insert into delivery_attempt (delivery_id, attempt_number, started_at, duration_ms, response_status, response_body)
    values (old.id, old.attempts, old.success_started_at, old.success_duration_ms, old.success_status, old.success_body);
    new.success_started_at := null;
    new.success_duration_ms := null;
    new.success_status := null;
    new.success_body := null;
    return new;
end;
$$;

create trigger webhook_delivery_reopened before update of status on webhook_delivery for each row
    when (old.success_status is not null and new.status <> 'delivered') execute function hookfan_delivery_reopened();

-- Every attempt of every delivery, wherever it is kept: read this, not delivery_attempt.
create view delivery_attempt_history as
    select delivery_id, attempt_number, started_at, duration_ms, response_status, response_body, error
    from delivery_attempt
    union all
    select id, attempts, success_started_at, success_duration_ms, success_status, success_body, null::varchar(1000)
    from webhook_delivery where success_status is not null;
