#!/usr/bin/env bash
# Runs Hookfan on this machine: prepares PostgreSQL and RabbitMQ, builds the fast-jar, starts it on :8080.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/services.sh
echo "run: building the fast-jar (./mvnw package; the first build downloads the dependencies, a minute or more)"
# Maven's download progress stays off; the module it builds, its warnings, errors and verdict stay on.
set +e
./mvnw -B --no-transfer-progress package -DskipTests 2>&1 | grep -E '^\[(ERROR|WARNING)\]|BUILD |Building '
build=${PIPESTATUS[0]}
set -e
[ "$build" = 0 ] || { echo "run: the build failed (./mvnw package -DskipTests shows it all)" >&2; exit 1; }
echo "run: starting Hookfan on http://localhost:8080/ (health and metrics on :9000)"
# A password is harmless under trust auth and needed on a fresh install (see services.sh).
export QUARKUS_DATASOURCE_PASSWORD="${QUARKUS_DATASOURCE_PASSWORD:-postgres}"
# Without a configured verification key, trust the local one that scripts/dev-token.sh signs with.
if [ -z "${MP_JWT_VERIFY_PUBLICKEY_LOCATION:-}" ]; then
  scripts/dev-token.sh bootstrap >/dev/null
  export MP_JWT_VERIFY_PUBLICKEY_LOCATION="$PWD/.hookfan-dev/jwt-public.pem" MP_JWT_VERIFY_ISSUER="${MP_JWT_VERIFY_ISSUER:-hookfan-dev}"
fi
exec java ${JAVA_OPTS:-} -jar target/quarkus-app/quarkus-run.jar
