#!/usr/bin/env bash
# Prints a bearer token for local use: RS256, issuer "hookfan-dev", audience "hookfan", valid 12 hours, acting on the
# organizations given as arguments. Creates the key pair in .hookfan-dev/ on first use (run.sh trusts it).
#   TOKEN=$(scripts/dev-token.sh org_123 org_456)
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$#" -ge 1 ] || { echo "usage: $0 ORGANIZATION_ID..." >&2; exit 2; }
mkdir -p .hookfan-dev
if [ ! -f .hookfan-dev/jwt-private.pem ]; then
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out .hookfan-dev/jwt-private.pem 2>/dev/null
  openssl rsa -in .hookfan-dev/jwt-private.pem -pubout -out .hookfan-dev/jwt-public.pem 2>/dev/null
fi
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
orgs=$(printf '"%s",' "$@"); orgs="[${orgs%,}]"
now=$(date +%s)
header=$(printf '{"alg":"RS256","typ":"JWT"}' | b64url)
payload=$(printf '{"iss":"hookfan-dev","aud":"hookfan","sub":"dev","iat":%d,"exp":%d,"org_id":%s}' "$now" $((now + 43200)) "$orgs" | b64url)
signature=$(printf '%s.%s' "$header" "$payload" | openssl dgst -sha256 -sign .hookfan-dev/jwt-private.pem | b64url)
printf '%s.%s.%s\n' "$header" "$payload" "$signature"
