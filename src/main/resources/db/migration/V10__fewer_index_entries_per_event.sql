-- Every consumed event writes 5 delivery rows and an audit entry; their index entries, more than their width,
-- are what ingest costs PostgreSQL (bench/results/2026-12-05-quick/README.md). So:
-- the audit entry's natural key becomes its primary key, and its random id, a listing tie-breaker only, loses its index;
alter table audit_entry drop constraint audit_entry_pkey;
alter table audit_entry add constraint audit_entry_pkey primary key using index audit_entry_source_idx;
-- the listing indexes keep the instant alone: rows that share one are few, and the listings sort them by id.
drop index webhook_delivery_webhook_created_idx;
create index webhook_delivery_webhook_created_idx on webhook_delivery (webhook_id, created_at);
drop index audit_entry_organization_recorded_idx;
create index audit_entry_organization_recorded_idx on audit_entry (organization_id, recorded_at);
