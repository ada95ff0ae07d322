-- An event's body is stored once, however many webhooks it fans out to; a delivery row keeps only what is its own.
-- A subscriber still receives '{"delivery":"<id>",' || body, byte for byte what V2 to V12 stored per delivery.
create table delivery_event (
    id               varchar(32)   primary key,
    organization_id  varchar(255)  not null,
    message_id       varchar(255),
    event_type       varchar(255)  not null,
    traceparent      varchar(128),
    -- The body every delivery of this event sends, from just after its own "delivery" field.
    body             text          not null,
    -- Delivery rows that refer to this event: the retention purge deletes the event once none is left.
    deliveries       integer       not null,
    created_at       timestamptz   not null
);

-- LZ4 compresses and, above all, decompresses JSON much faster than pglz; a server built without it keeps pglz.
do $$
begin
    execute 'alter table delivery_event alter column body set compression lz4';
exception when feature_not_supported or invalid_parameter_value then
    raise notice 'V13: this PostgreSQL has no lz4, event bodies are compressed with pglz';
end;
$$;

-- Every payload was written as '{"delivery":"<id>",' followed by the event's fields; anything else was not
-- written by Hookfan, and moving it would change what its subscriber receives.
do $$
declare
    odd varchar(32);
begin
    select id into odd from webhook_delivery
    where left(payload, length(id) + 15) <> '{"delivery":"' || id || '",' limit 1;
    if odd is not null then
        raise exception 'V13: delivery % has a payload that does not begin with {"delivery":"%", (written by hand?);'
            ' fix or delete such rows, then start Hookfan again', odd, odd;
    end if;
end;
$$;

-- One event per distinct (organization, message, traceparent, body) among the existing rows. Its id is the one
-- the service derives from (message id, organization), so a replay after the upgrade finds it; the rare second
-- body published under one message id keeps one of its own.
create temporary table v13_delivery on commit drop as
select id, organization_id, message_id, event_type, traceparent, created_at,
       md5(substr(payload, length(id) + 16)) as body_md5
from webhook_delivery;

create temporary table v13_event on commit drop as
select g.*,
       case
           when g.message_id is not null and g.nth = 1 then encode(substring(sha256(convert_to('event:'
               || octet_length(g.organization_id) || ':' || g.organization_id || ':'
               || case when g.message_id ~* '^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})$'
                       then lower(replace(g.message_id, '-', '')) else g.message_id end, 'UTF8')) from 1 for 16), 'hex')
           else md5(g.organization_id || ':' || coalesce(g.message_id, '') || ':' || coalesce(g.traceparent, '')
               || ':' || g.body_md5)
       end as event_id
from (select organization_id, message_id, event_type, traceparent, body_md5, count(*) as deliveries,
             min(created_at) as created_at, min(id) as sample,
             row_number() over (partition by organization_id, message_id order by min(created_at), body_md5) as nth
      from v13_delivery
      group by organization_id, message_id, event_type, traceparent, body_md5) as g;

insert into delivery_event (id, organization_id, message_id, event_type, traceparent, body, deliveries, created_at)
select e.event_id, e.organization_id, e.message_id, e.event_type, e.traceparent, substr(d.payload, length(d.id) + 16),
       e.deliveries, e.created_at
from v13_event e
join webhook_delivery d on d.id = e.sample;

alter table webhook_delivery add column event_id varchar(32);
alter table webhook_delivery alter column payload drop not null;

-- Each row is rewritten once, without its payload (vacuum then reclaims the old versions and their TOAST).
update webhook_delivery d set event_id = e.event_id, payload = null
from v13_delivery v
join v13_event e on e.organization_id = v.organization_id
    and e.message_id is not distinct from v.message_id
    and e.event_type = v.event_type
    and e.traceparent is not distinct from v.traceparent
    and e.body_md5 = v.body_md5
where d.id = v.id;

alter table webhook_delivery
    alter column event_id set not null,
    drop column payload,
    drop column message_id,
    drop column event_type,
    drop column traceparent;

-- What the retention purge looks for: finished deliveries and audit entries older than their retention. Both
-- instants only grow, so new entries go to the right-hand edge of the index.
create index webhook_delivery_created_idx on webhook_delivery (created_at);
create index audit_entry_recorded_idx on audit_entry (recorded_at);
