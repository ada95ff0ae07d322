-- Every committed change to a webhook, from any writer (API, sender, an operator's psql), tells each Hookfan
-- instance which organization's cached subscriptions to drop. NOTIFY is delivered only after the commit.
create function hookfan_webhook_changed() returns trigger language plpgsql as $$
begin
    if tg_op = 'TRUNCATE' then
        perform pg_notify('hookfan_webhook_changes', '*');
    elsif tg_op = 'DELETE' then
        perform pg_notify('hookfan_webhook_changes', old.organization_id);
    else
        perform pg_notify('hookfan_webhook_changes', new.organization_id);
        if tg_op = 'UPDATE' and old.organization_id <> new.organization_id then
            perform pg_notify('hookfan_webhook_changes', old.organization_id);
        end if;
    end if;
    return null;
end;
$$;

create trigger webhook_changed after insert or update or delete on webhook
    for each row execute function hookfan_webhook_changed();
create trigger webhook_truncated after truncate on webhook
    for each statement execute function hookfan_webhook_changed();
