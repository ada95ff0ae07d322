-- Operational events (hookfan.webhook.disabled, hookfan.delivery.exhausted, hookfan.webhook.recovered), written in the
-- transaction that records the fact and published from here, then deleted (an outbox): none is lost while the broker
-- is away. The id, the message id they are published with, is derived from the fact.
create table operational_event (
    id              varchar(64)  primary key,
    organization_id varchar(255) not null,
    event_type      varchar(64)  not null,
    body            text         not null,
    created_at      timestamptz  not null default now()
);
create index operational_event_created_idx on operational_event (created_at);

-- Set when a delivery of the webhook exhausted its schedule (and that was announced); a success then announces the
-- webhook recovered, once, and clears it.
alter table webhook add column failure_announced boolean not null default false;
