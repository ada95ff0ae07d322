-- A sweep row names a whole fan-out batch (hundreds of random hex ids, well past TOAST's 2 kB threshold), and
-- PostgreSQL tried to pglz-compress every one in vain: 2.7 % of its CPU during ingest (perf, bench/). Out of line, as before, but uncompressed.
alter table delivery_sweep alter column delivery_ids set storage external;
