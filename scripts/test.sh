#!/usr/bin/env bash
# Runs the whole test suite (unit, @QuarkusTest and the packaged-app @QuarkusIntegrationTest) against
# real PostgreSQL and RabbitMQ, which it installs and starts first where they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/services.sh
export QUARKUS_DATASOURCE_PASSWORD="${QUARKUS_DATASOURCE_PASSWORD:-postgres}"
exec ./mvnw -B verify "$@"
