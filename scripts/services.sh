#!/usr/bin/env bash
# Makes sure PostgreSQL and RabbitMQ are installed, running and prepared for Hookfan on this machine.
# Installs them from the distribution's packages (Debian/Ubuntu) when they are missing. Idempotent.
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

apt_updated=""
install_packages() {
  if [ -z "$apt_updated" ]; then $SUDO apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

# --- PostgreSQL -------------------------------------------------------------
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "services: installing PostgreSQL"
  install_packages postgresql postgresql-contrib
fi
if ! pg_isready -q -h 127.0.0.1 -p 5432; then
  echo "services: starting PostgreSQL"
  for version in $(ls /etc/postgresql); do
    $SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  done
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
as_postgres() { if [ "$(id -un)" = postgres ]; then "$@"; else $SUDO runuser -u postgres -- "$@"; fi; }
# A fresh install asks for a password over TCP: give the postgres role the one Hookfan's scripts pass.
if ! psql -h 127.0.0.1 -U postgres -d postgres -tAc "select 1" >/dev/null 2>&1; then
  as_postgres psql -q -d postgres -c "alter user postgres password 'postgres'"
fi
export PGPASSWORD="${QUARKUS_DATASOURCE_PASSWORD:-postgres}"
# The tests and the benchmark count statements at PostgreSQL itself, with pg_stat_statements, which must be
# preloaded: the first time, that costs one restart.
if ! psql -h 127.0.0.1 -U postgres -d postgres -tAc "show shared_preload_libraries" | grep -q pg_stat_statements; then
  echo "services: preloading pg_stat_statements (PostgreSQL restarts once)"
  psql -h 127.0.0.1 -U postgres -d postgres -qc "alter system set shared_preload_libraries = 'pg_stat_statements'"
  for version in $(ls /etc/postgresql); do
    $SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main restart
  done
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
for database in hookfan hookfan_test; do
  if [ "$(psql -h 127.0.0.1 -U postgres -d postgres -tAc "select 1 from pg_database where datname = '$database'")" != "1" ]; then
    psql -h 127.0.0.1 -U postgres -d postgres -qc "create database $database"
  fi
done

# --- RabbitMQ ---------------------------------------------------------------
if ! command -v rabbitmqctl >/dev/null 2>&1; then
  echo "services: installing RabbitMQ"
  install_packages rabbitmq-server
fi
if ! $SUDO rabbitmqctl -q status >/dev/null 2>&1; then
  echo "services: starting RabbitMQ"
  $SUDO rabbitmq-server -detached
fi
$SUDO rabbitmqctl -q await_startup --timeout 120 >/dev/null
# The tests run in a vhost of their own, which also proves a non-default vhost works end to end.
$SUDO rabbitmqctl -q add_vhost hookfan-test >/dev/null 2>&1 || true
$SUDO rabbitmqctl -q set_permissions -p hookfan-test guest ".*" ".*" ".*" >/dev/null

echo "services: PostgreSQL on 127.0.0.1:5432 and RabbitMQ on 127.0.0.1:5672 are ready"
