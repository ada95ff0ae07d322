-- One audit entry per consumed event and organization, keyed on the message that carried it.
create table audit_entry (
    id                 varchar(32)  primary key,
    organization_id    varchar(255) not null,
    source_message_id  varchar(255) not null,
    event_type         varchar(255) not null,
    occurred_at        timestamptz,
    recorded_at        timestamptz  not null,
    data               text         not null
);

create unique index audit_entry_source_idx on audit_entry (source_message_id, organization_id);
create index audit_entry_organization_recorded_idx on audit_entry (organization_id, recorded_at, id);

-- The latest entitlements Billing published for an organization; the newest updated_at wins.
create table organization_entitlements (
    organization_id  varchar(255) primary key,
    limits           text         not null,
    max_webhooks     integer,
    updated_at       timestamptz  not null,
    received_at      timestamptz  not null
);
