#!/usr/bin/env bash
# Makes sure PostgreSQL and RabbitMQ are installed, running and prepared for Hookfan on this machine.
# Installs them from the distribution's packages (Debian/Ubuntu) when they are missing. Idempotent: once both
# are set up, it changes nothing, needs no network and prints only its last line. Runs as root, or as a user who
# may use sudo (what needs root goes through sudo). Starts the services with systemctl where systemd is PID 1,
# directly otherwise (containers, chroots). With --browser, also Chromium and ChromeDriver (the browser tests).
set -euo pipefail

# rabbitmqctl and friends live in /usr/sbin, which is not on a normal user's PATH.
export PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"

fail() { echo "services: $*" >&2; exit 69; }

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 \
    || fail "not root and sudo is missing: run this as root, or install sudo and give $(id -un) the right to use it"
  SUDO=(sudo)
fi
as_root() { "${SUDO[@]}" "$@"; }
# As the postgres user, from a directory that user can enter (it cannot enter /root or most home directories).
as_postgres() { (cd / && if [ "$(id -un)" = postgres ]; then "$@"; else as_root runuser -u postgres -- "$@"; fi); }

systemd=""
if [ "$(cat /proc/1/comm 2>/dev/null)" = systemd ] && [ -d /run/systemd/system ]; then systemd=1; fi

# Polls "$@" until it succeeds or $deadline seconds pass.
wait_for() {
  local deadline=$1; shift
  local end=$((SECONDS + deadline))
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$end" ] || return 1
    sleep 1
  done
}

apt_updated=""
install_packages() {
  command -v apt-get >/dev/null 2>&1 || fail "$* missing and this is not a Debian/Ubuntu machine: install them yourself"
  if [ -z "$apt_updated" ]; then
    as_root apt-get update -qq || fail "apt-get update failed: check the network and /etc/apt/sources.list, then run this again"
    apt_updated=1
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null \
    || fail "apt-get install $* failed: see the messages above, then run this again"
}

# --- PostgreSQL -------------------------------------------------------------
pg_ready() { pg_isready -q -h 127.0.0.1 -p 5432; }
pg_versions() { ls /etc/postgresql 2>/dev/null; }
# pg_ctlcluster hands start/stop/restart to systemctl itself when systemd runs (the cluster stays in its unit).
pg_cluster() { local action=$1 version; for version in $(pg_versions); do as_root pg_ctlcluster "$version" main "$action"; done; }

if [ ! -x /usr/bin/pg_ctlcluster ] || ! ls /usr/share/postgresql/*/extension/pg_stat_statements.control >/dev/null 2>&1; then
  echo "services: installing PostgreSQL"
  install_packages postgresql postgresql-contrib
fi
if ! pg_ready; then
  echo "services: starting PostgreSQL"
  [ -n "$(pg_versions)" ] || fail "PostgreSQL is installed but has no cluster in /etc/postgresql: create one with 'sudo pg_createcluster --start 15 main'"
  if [ -n "$systemd" ]; then as_root systemctl start postgresql; else pg_cluster start || true; fi
  wait_for 60 pg_ready || fail "PostgreSQL does not answer on 127.0.0.1:5432 after 60 s: see /var/log/postgresql/, and check nothing else holds port 5432"
fi
# The password Hookfan's scripts pass. Exported first, so the check below sees whether it works already.
export PGPASSWORD="${QUARKUS_DATASOURCE_PASSWORD:-postgres}"
sql() { psql -X -h 127.0.0.1 -U postgres -d postgres "$@"; }
# A fresh install asks for a password over TCP: give the postgres role that password, once.
if ! sql -tAc "select 1" >/dev/null 2>&1; then
  as_postgres psql -X -q -d postgres -c "alter user postgres password '$PGPASSWORD'" \
    || fail "could not set the postgres role's password (as the postgres user over the local socket)"
  sql -tAc "select 1" >/dev/null || fail "psql -h 127.0.0.1 -U postgres is refused: check pg_hba.conf allows password (or trust) logins from 127.0.0.1"
fi
# The tests and the benchmark count statements at PostgreSQL itself, with pg_stat_statements, which must be
# preloaded: the first time, that costs one restart.
if ! sql -tAc "show shared_preload_libraries" | grep -q pg_stat_statements; then
  echo "services: preloading pg_stat_statements (PostgreSQL restarts once)"
  sql -qc "alter system set shared_preload_libraries = 'pg_stat_statements'"
  if [ -n "$systemd" ]; then as_root systemctl restart postgresql; else pg_cluster restart; fi
  wait_for 60 pg_ready || fail "PostgreSQL did not come back within 60 s of its restart: see /var/log/postgresql/"
fi
for database in hookfan hookfan_test; do
  if [ "$(sql -tAc "select 1 from pg_database where datname = '$database'")" != "1" ]; then
    sql -qc "create database $database"
  fi
done

# --- RabbitMQ ---------------------------------------------------------------
if ! command -v rabbitmqctl >/dev/null 2>&1; then
  echo "services: installing RabbitMQ"
  install_packages rabbitmq-server
fi
# Debian's rabbitmqctl refuses callers other than root and rabbitmq.
rmq() { as_root "$(command -v rabbitmqctl)" "$@"; }
if ! rmq -q ping >/dev/null 2>&1; then
  echo "services: starting RabbitMQ"
  if [ -n "$systemd" ]; then
    as_root systemctl start rabbitmq-server || true
  else
    # -detached returns before the node has registered with epmd, and await_startup fails at once until then:
    # wait for the node to answer ping first.
    as_root "$(command -v rabbitmq-server)" -detached || true
  fi
  wait_for 120 rmq -q ping \
    || fail "the RabbitMQ node does not answer 'rabbitmqctl ping' after 120 s: see /var/log/rabbitmq/ and check nothing else holds ports 5672, 4369 or 25672"
fi
rmq -q await_startup --timeout 120 >/dev/null \
  || fail "RabbitMQ's node runs but the broker did not start within 120 s: see /var/log/rabbitmq/; 'sudo rabbitmqctl start_app' starts a stopped one"
# The tests run in a vhost of their own, which also proves a non-default vhost works end to end.
if ! rmq -q list_vhosts 2>/dev/null | grep -qx hookfan-test; then
  rmq -q add_vhost hookfan-test >/dev/null || fail "could not create the RabbitMQ vhost hookfan-test"
fi
rmq -q set_permissions -p hookfan-test guest ".*" ".*" ".*" >/dev/null \
  || fail "could not give guest the vhost hookfan-test"

# --- Chromium, for the portal's browser tests (scripts/test.sh asks for it) ---------------------------------
if [ "${1:-}" = "--browser" ] && { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; }; then
  echo "services: installing Chromium and ChromeDriver (the portal's browser tests)"
  install_packages chromium chromium-driver
fi

echo "services: PostgreSQL on 127.0.0.1:5432 and RabbitMQ on 127.0.0.1:5672 are ready"
