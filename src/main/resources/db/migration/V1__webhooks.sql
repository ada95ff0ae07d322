-- Subscriptions of an organization's URL to event types.
create table webhook (
    id               varchar(32)   primary key,
    organization_id  varchar(255)  not null,
    url              varchar(2048) not null,
    event_types      text[]        not null,
    description      varchar(500),
    enabled          boolean       not null default true,
    disabled_reason  varchar(500),
    failing_since    timestamptz,
    created_at       timestamptz   not null,
    updated_at       timestamptz   not null
);

-- Listing in creation order (cursor on created_at, id) and the fan-out lookup of one organization.
create index webhook_organization_created_idx on webhook (organization_id, created_at, id);

-- Signing secrets: the current one has no expiry; a rotated one keeps signing until expires_at.
create table webhook_secret (
    id          bigserial    primary key,
    webhook_id  varchar(32)  not null references webhook (id) on delete cascade,
    secret      varchar(512) not null,
    created_at  timestamptz  not null,
    expires_at  timestamptz
);

create index webhook_secret_webhook_idx on webhook_secret (webhook_id, created_at desc);
