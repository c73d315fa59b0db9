#!/usr/bin/env bash
# Fuzz the router API from its own OpenAPI document with schemathesis: the router (mainnet registry) is
# started on a free loopback port, schemathesis reads /swagger/doc.json and fails on any 5xx, any status code
# or body that the document does not declare, or any schema-invalid input the router accepts.
# One worker: hypothesis's lambda-description cache is not thread-safe (sporadic "AST constructor recursion
# depth mismatch" runtime errors with --workers 2).
# Usage: bash scripts/fuzz-router.sh [max-examples-per-operation]   (default 120: 21 operations, ~2,500 cases)
set -euo pipefail
cd "$(dirname "$0")/.."
examples="${1:-120}"
venv="${CHAIN_INFRA_CACHE:-$HOME/.cache/chain-infra}/venv"
if [ ! -x "$venv/bin/st" ]; then
  mkdir -p "$(dirname "$venv")"
  # One install at a time: the indexer fuzzer shares this venv.
  (flock 9; [ -x "$venv/bin/st" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q 'schemathesis>=4,<5'; }) 9>"$(dirname "$venv")/venv.lock"
fi
mkdir -p .tmp
log=.tmp/router-fuzz-server.log
# node itself (not npx) so that $pid is the server and the trap really stops it. Balances read no registry
# endpoint (those are public hosts; fuzzing stays on loopback) and the per-client limit is off (fuzzing is one
# client sending thousands of calls; the limit has its own test).
# With the tracking routes (--tracking: embedded chDB in a scratch DATA_DIR, a Temporal dev server, no chain worker)
# and webhooks on, with a signing key made for this run only and loopback targets allowed.
data_dir="$(mktemp -d -t fuzz-router-XXXX)"
webhook_secret="whsec_$(head -c 32 /dev/urandom | base64 | tr -d '\n')"
DATA_DIR="$data_dir" WEBHOOK_SECRET="$webhook_secret" WEBHOOK_HOSTS=127.0.0.1 WEBHOOK_PRIVATE_ADDRESSES=true \
  ROUTER_NETWORK="${ROUTER_NETWORK:-mainnet}" ROUTER_BALANCES_FROM_REGISTRY=false ROUTER_CLIENT_WRITES_PER_MINUTE=0 \
  LOG_LEVEL=warn node --import tsx scripts/serve-router.ts 0 --tracking >"$log.out" 2>"$log" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$data_dir"' EXIT
for _ in $(seq 1 300); do
  port=$(sed -n 's/.*"port":\([0-9]*\).*/\1/p' "$log.out" 2>/dev/null | head -1)
  [ -n "$port" ] && break
  kill -0 "$pid" 2>/dev/null || { echo "fuzz-router: server exited" >&2; cat "$log" >&2; exit 1; }
  sleep 0.2
done
[ -n "${port:-}" ] || { echo "fuzz-router: server did not start" >&2; exit 1; }
echo "fuzz-router: router on 127.0.0.1:$port, $examples examples per operation"
"$venv/bin/st" --config-file scripts/fuzz-router.toml run "http://127.0.0.1:$port/swagger/doc.json" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,negative_data_rejection \
  --max-examples "$examples" --seed 4 --workers 1 --request-timeout 10 \
  --suppress-health-check all --warnings off --no-shrink
