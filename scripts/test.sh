#!/usr/bin/env bash
# Runs the whole test suite (unit, @QuarkusTest and the packaged-app @QuarkusIntegrationTest) against
# real PostgreSQL and RabbitMQ, which it installs and starts first where they are missing (and Chromium with its
# driver, for the portal's browser tests).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/services.sh --browser
# The fault suite stops and starts PostgreSQL and RabbitMQ: as root, or through sudo -n (no password prompt).
if [ "$(id -u)" -ne 0 ] && ! sudo -n true 2>/dev/null; then
  echo "test: not root and no passwordless sudo: DeadLetterAdminTest's delivery-limit test will be skipped (see the README's Tests section)" >&2
fi
export QUARKUS_DATASOURCE_PASSWORD="${QUARKUS_DATASOURCE_PASSWORD:-postgres}"
exec ./mvnw -B verify "$@"
