#!/usr/bin/env bash
# Prints a bearer token for local use: RS256, issuer "hookfan-dev", audience "hookfan", valid 12 hours, acting on the
# organizations given as arguments; with --admin, also for the operator API (groups ["hookfan-admin"]). Creates the
# key pair in .hookfan-dev/ on first use (run.sh trusts it).
#   TOKEN=$(scripts/dev-token.sh org_123 org_456)
#   ADMIN=$(scripts/dev-token.sh --admin)
set -euo pipefail
cd "$(dirname "$0")/.."
groups="[]"
if [ "${1:-}" = "--admin" ]; then
  groups='["hookfan-admin"]'
  shift
elif [ "$#" -lt 1 ]; then
  echo "usage: $0 ORGANIZATION_ID... | $0 --admin [ORGANIZATION_ID...]" >&2
  exit 2
fi
mkdir -p .hookfan-dev
if [ ! -f .hookfan-dev/jwt-private.pem ]; then
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out .hookfan-dev/jwt-private.pem 2>/dev/null
  openssl rsa -in .hookfan-dev/jwt-private.pem -pubout -out .hookfan-dev/jwt-public.pem 2>/dev/null
fi
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
orgs="[]"
if [ "$#" -ge 1 ]; then orgs=$(printf '"%s",' "$@"); orgs="[${orgs%,}]"; fi
now=$(date +%s)
header=$(printf '{"alg":"RS256","typ":"JWT"}' | b64url)
payload=$(printf '{"iss":"hookfan-dev","aud":"hookfan","sub":"dev","iat":%d,"exp":%d,"org_id":%s,"groups":%s}' \
  "$now" $((now + 43200)) "$orgs" "$groups" | b64url)
signature=$(printf '%s.%s' "$header" "$payload" | openssl dgst -sha256 -sign .hookfan-dev/jwt-private.pem | b64url)
printf '%s.%s.%s\n' "$header" "$payload" "$signature"
