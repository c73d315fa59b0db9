#!/usr/bin/env bash
# Property-based fuzzing of the indexer API from its own OpenAPI document (schemathesis), against the
# indexer serving an ingested sample chain on loopback. Fails (non-zero) on any 5xx, any response that does
# not match the document (schema, status code, content type). Usage:
#   scripts/fuzz-indexer.sh [evm|move|wasm ...]      (default: evm move wasm)
#   FUZZ_MAX_EXAMPLES=50 scripts/fuzz-indexer.sh evm
set -euo pipefail
cd "$(dirname "$0")/.."
KINDS=("$@")
[ $# -eq 0 ] && KINDS=(evm move wasm)
MAX_EXAMPLES="${FUZZ_MAX_EXAMPLES:-40}"

# schemathesis lives in a venv shared with the router's fuzzer; create it once, under a lock.
VENV="${CHAIN_INFRA_CACHE:-$HOME/.cache/chain-infra}/venv"
mkdir -p "$(dirname "$VENV")"
(
  flock 9
  if [ ! -x "$VENV/bin/schemathesis" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q 'schemathesis>=4,<5'
  fi
) 9>"${VENV}.lock"

status=0
for kind in "${KINDS[@]}"; do
  log="$(mktemp -t fuzz-indexer-XXXX.log)"
  # node itself (not the npx/tsx wrapper), so that $pid is the server and killing it stops it.
  node --import tsx devnet/tools/serve-sample.ts "$kind" >"$log" 2>&1 &
  pid=$!
  trap 'kill $pid 2>/dev/null || true' EXIT
  base=""
  for _ in $(seq 1 240); do
    base="$(grep -m1 '^READY ' "$log" | cut -d' ' -f2 || true)"
    [ -n "$base" ] && break
    kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "indexer ($kind) did not start"; exit 1; }
    sleep 0.5
  done
  [ -n "$base" ] || { cat "$log"; echo "indexer ($kind) did not start in time"; exit 1; }
  echo "== fuzzing the indexer over the $kind sample chain at $base"
  if ! "$VENV/bin/schemathesis" run "$base/swagger/doc.json" \
      --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
      --phases examples,coverage,fuzzing --max-examples "$MAX_EXAMPLES" --workers 1 \
      --request-timeout 10 --suppress-health-check all; then
    status=1
  fi
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  trap - EXIT
  if grep -q '"http.error"' "$log"; then
    echo "server logged 5xx errors while fuzzing $kind:"; grep '"http.error"' "$log" | head -20; status=1
  fi
  rm -f "$log"
done
exit $status
