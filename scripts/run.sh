#!/usr/bin/env bash
# Runs Hookfan on this machine: prepares PostgreSQL and RabbitMQ, builds the fast-jar, starts it on :8080.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/services.sh
./mvnw -B -q package -DskipTests
# A password is harmless under trust auth and needed on a fresh install (see services.sh).
export QUARKUS_DATASOURCE_PASSWORD="${QUARKUS_DATASOURCE_PASSWORD:-postgres}"
# Without a configured verification key, trust the local one that scripts/dev-token.sh signs with.
if [ -z "${MP_JWT_VERIFY_PUBLICKEY_LOCATION:-}" ]; then
  scripts/dev-token.sh bootstrap >/dev/null
  export MP_JWT_VERIFY_PUBLICKEY_LOCATION="$PWD/.hookfan-dev/jwt-public.pem" MP_JWT_VERIFY_ISSUER="${MP_JWT_VERIFY_ISSUER:-hookfan-dev}"
fi
exec java ${JAVA_OPTS:-} -jar target/quarkus-app/quarkus-run.jar
