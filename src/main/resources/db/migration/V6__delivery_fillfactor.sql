-- Room on every page for a second version of a row: a claim only sets lease_until, which no index covers, so with
-- free space on its page the update is a heap-only tuple, with no index entries and less WAL to flush.
alter table webhook_delivery set (fillfactor = 80);
