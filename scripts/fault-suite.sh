#!/usr/bin/env bash
# The fault scenarios (FaultSuiteIT): two packaged instances while RabbitMQ and PostgreSQL are stopped and started,
# an instance killed, poison mixed in. Minutes long, so a CI step of its own after the suite (budget: 10 minutes on
# the 2-core build machine). Needs root or passwordless sudo for rabbitmqctl and pg_ctlcluster; skipped otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/services.sh
if [ "$(id -u)" -ne 0 ] && ! sudo -n true 2>/dev/null; then
  echo "fault-suite: not root and no passwordless sudo: FaultSuiteIT will be skipped (see the README's Tests section)" >&2
fi
export QUARKUS_DATASOURCE_PASSWORD="${QUARKUS_DATASOURCE_PASSWORD:-postgres}"
exec ./mvnw -B verify -Dit.test=FaultSuiteIT -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false "$@"
