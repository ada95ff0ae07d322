-- The sender signs with secrets it keeps in memory per organization (WebhookDirectory), so a rotated, added or
-- deleted secret drops the organization's entry on every instance too, on the channel of V4, after the commit.
create function hookfan_webhook_secret_changed() returns trigger language plpgsql as $$
declare
    organization varchar(255);
begin
    if tg_op = 'TRUNCATE' then
        perform pg_notify('hookfan_webhook_changes', '*');
        return null;
    end if;
    if tg_op = 'DELETE' then
        select organization_id into organization from webhook where id = old.webhook_id;
    else
        select organization_id into organization from webhook where id = new.webhook_id;
    end if;
    -- A secret deleted with its webhook: the webhook's own trigger notifies.
    if organization is not null then
        perform pg_notify('hookfan_webhook_changes', organization);
    end if;
    return null;
end;
$$;

create trigger webhook_secret_changed after insert or update or delete on webhook_secret
    for each row execute function hookfan_webhook_secret_changed();
create trigger webhook_secret_truncated after truncate on webhook_secret
    for each statement execute function hookfan_webhook_secret_changed();
