#!/usr/bin/env bash
# Runs Hookfan on this machine: prepares PostgreSQL and RabbitMQ, builds the fast-jar, starts it on :8080.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/services.sh
./mvnw -B -q package -DskipTests
# A password is harmless under trust auth and needed on a fresh install (see services.sh).
export QUARKUS_DATASOURCE_PASSWORD="${QUARKUS_DATASOURCE_PASSWORD:-postgres}"
exec java ${JAVA_OPTS:-} -jar target/quarkus-app/quarkus-run.jar
