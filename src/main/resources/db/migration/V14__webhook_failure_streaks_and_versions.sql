-- When the webhook last failed: a failure long after the one before starts a new streak, so a quiet webhook with one
-- old failure is not disabled by the next (see AttemptRecorder). Failing webhooks take their last failed attempt.
alter table webhook add column last_failure_at timestamptz;
update webhook w set last_failure_at = (select max(a.started_at) from webhook_delivery d
        join delivery_attempt a on a.delivery_id = d.id
        where d.webhook_id = w.id and (a.response_status is null or a.response_status not between 200 and 299))
    where w.failing_since is not null;

-- Optimistic version: an API update that read the webhook before the sender disabled it fails instead of re-enabling it.
alter table webhook add column version bigint not null default 0;
