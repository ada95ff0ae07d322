#!/usr/bin/env bash
# The end-to-end benchmark (see bench/README.md): packages the service (no tests), prepares a database and a
# vhost of its own (scripts/services.sh preloads pg_stat_statements, restarting PostgreSQL once), then runs
# bench/src against the packaged service. Options: --events 50000 --runs 3 --latency-rate 1000
# --latency-seconds 60 --warmup 10000 --warmup-rounds 10 --raw-seconds 20 --queue-type quorum
# --artifacts jvm,native (native builds the executable with ../shared/native-toolchain first). Results: bench/results/<date>.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/services.sh
export PGPASSWORD="${QUARKUS_DATASOURCE_PASSWORD:-postgres}"
psql_admin() { psql -h 127.0.0.1 -U postgres -d "${2:-postgres}" -tAqc "$1"; }

# Production PostgreSQL runs autovacuum; without it (some CI images turn it off) statistics never catch up with
# a table that grows from empty, and the planner keeps scanning what it believes is small.
if [ "$(psql_admin "show autovacuum")" != "on" ]; then
  echo "bench: turning autovacuum on (the PostgreSQL default; it stays on)"
  psql_admin "alter system set autovacuum = on"
  psql_admin "select pg_reload_conf()" >/dev/null
fi
# The statement tables report planning time beside execution time (plan_cache_mode=force_custom_plan plans every one).
if [ "$(psql_admin "show pg_stat_statements.track_planning")" != "on" ]; then
  psql_admin "alter system set pg_stat_statements.track_planning = on"
  psql_admin "select pg_reload_conf()" >/dev/null
fi
if [ "$(psql_admin "select 1 from pg_database where datname = 'hookfan_bench'")" != "1" ]; then
  psql_admin "create database hookfan_bench"
fi
psql_admin "create extension if not exists pg_stat_statements" hookfan_bench
rabbitmqctl -q add_vhost hookfan-bench >/dev/null 2>&1 || true
rabbitmqctl -q set_permissions -p hookfan-bench guest ".*" ".*" ".*" >/dev/null

./mvnw -B -q package -DskipTests
if [[ " $* " =~ --artifacts[=\ ][^\ ]*native ]]; then
  toolchain="${HOOKFAN_NATIVE_TOOLCHAIN:-$HOME/.cache/hookfan-native-toolchain}"
  ../shared/native-toolchain/build.sh "$toolchain" > target/native-toolchain.log 2>&1 \
    || { tail -20 target/native-toolchain.log >&2; echo "bench: the native toolchain could not be assembled" >&2; exit 1; }
  # A subshell: the toolchain's JAVA_HOME (JDK 25, for the builder) must not run the benchmark itself.
  ( source "$toolchain/env.sh" && ./mvnw -B -q package -Dnative -DskipTests \
      -Dquarkus.native.native-image-xmx="${HOOKFAN_NATIVE_XMX:-9g}" )
fi
./mvnw -B -q -f bench/pom.xml package
exec java -cp "bench/target/classes:bench/target/lib/*" dev.hookfan.bench.Benchmark "$@"
