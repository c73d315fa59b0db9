#!/usr/bin/env bash
# Starts the reference indexer rollytics against a running chain:
#   a private PostgreSQL cluster on 127.0.0.1 (random free port, socket in its
#   data dir), rollytics' schema (orm/migrations/*.sql applied in order with
#   psql: upstream's `atlas` migration CLI cannot be downloaded here), then
#   `rollytics indexer` and `rollytics api`.
#   usage: devnet/rollytics/start.sh <state-dir>
# Env (required): CHAIN_ID, COMETBFT_RPC_URL, COSMOS_REST_URL, EVM_JSONRPC_URL
#   (the lines devnet/minievm/start.sh prints). Optional: ROLLYTICS_API_PORT,
#   ROLLYTICS_INDEXER_PORT (random free ports by default), ROLLYTICS_POLLING_INTERVAL (1s),
#   ROLLYTICS_VM_TYPE (evm; move and wasm need no EVM_JSONRPC_URL),
#   ROLLYTICS_EXTRA_ENV (space-separated KEY=VALUE pairs passed to both processes,
#   e.g. cache sizes for the benchmark), ROLLYTICS_API_AFTER_HEIGHT (start the API only once the indexer's
#   /status height reaches it; waits up to ROLLYTICS_API_WAIT_S, 180 s).
# Prints ROLLYTICS_API_URL, ROLLYTICS_INDEXER_URL and ROLLYTICS_DB_DSN on stdout.
# Pids: <state-dir>/{api,indexer}.pid; Postgres' own postmaster.pid in its data
# dir (<state-dir>/pgdata.path names it). Stop everything with stop.sh.
#
# Postgres refuses to run as root, so as root the cluster belongs to the
# `postgres` user and its data dir is a fresh directory under ${TMPDIR:-/tmp}
# (the postgres user cannot enter /root); otherwise it is <state-dir>/pgdata.
set -euo pipefail
STATE="${1:?usage: start.sh <state-dir>}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
: "${CHAIN_ID:?set CHAIN_ID}" "${COMETBFT_RPC_URL:?set COMETBFT_RPC_URL}" "${COSMOS_REST_URL:?set COSMOS_REST_URL}"
VM_TYPE="${ROLLYTICS_VM_TYPE:-evm}"
if [[ "$VM_TYPE" == evm ]]; then : "${EVM_JSONRPC_URL:?set EVM_JSONRPC_URL}"; fi
say() { echo "[rollytics] $*" >&2; }

BIN="$(bash "$HERE/build.sh")"
SRC="$(dirname "$BIN")/src"
PGBIN="$(bash "$HERE/install-postgres.sh")"

if [[ -f "$STATE/indexer.pid" ]] && kill -0 "$(cat "$STATE/indexer.pid")" 2>/dev/null; then
  say "rollytics already running from $STATE; run stop.sh first"; exit 1
fi
mkdir -p "$STATE"
STATE="$(cd "$STATE" && pwd)"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
PGPORT="$(free_port)"
API_PORT="${ROLLYTICS_API_PORT:-$(free_port)}"
IDX_PORT="${ROLLYTICS_INDEXER_PORT:-$(free_port)}"

# 1. Private cluster.
if [[ "$(id -u)" == 0 ]]; then
  PGDATA="$(mktemp -d "${TMPDIR:-/tmp}/rollytics-pg.XXXXXX")"
  chown postgres:postgres "$PGDATA"
  aspg() { su postgres -s /bin/bash -c "$*"; }
else
  PGDATA="$STATE/pgdata"; rm -rf "$PGDATA"; mkdir -p "$PGDATA"
  aspg() { bash -c "$*"; }
fi
chmod 700 "$PGDATA"
echo "$PGDATA" >"$STATE/pgdata.path"
echo "$PGBIN" >"$STATE/pgbin.path"
aspg "'$PGBIN/initdb' -D '$PGDATA' -U postgres --auth=trust -E UTF8 --locale=C.UTF-8" >"$STATE/initdb.log" 2>&1 \
  || { say "initdb failed:"; tail -n 20 "$STATE/initdb.log" >&2; exit 1; }
aspg "'$PGBIN/pg_ctl' -D '$PGDATA' -l '$PGDATA/server.log' -o \"-c listen_addresses=127.0.0.1 -p $PGPORT -k '$PGDATA' -c fsync=off -c synchronous_commit=off\" -w -t 60 start" >"$STATE/pg_ctl.log" 2>&1 \
  || { say "postgres did not start:"; tail -n 20 "$PGDATA/server.log" >&2; exit 1; }
PSQL=(psql -q -X -h 127.0.0.1 -p "$PGPORT" -v ON_ERROR_STOP=1)
"${PSQL[@]}" -U postgres -d postgres -c "CREATE USER rollytics WITH PASSWORD 'rollytics';" -c "CREATE DATABASE rollytics OWNER rollytics;" >/dev/null

# 2. Schema: the migration files are plain SQL; autocommit (CREATE INDEX CONCURRENTLY).
for f in $(ls "$SRC"/orm/migrations/*.sql | sort); do
  PGPASSWORD=rollytics "${PSQL[@]}" -U rollytics -d rollytics -f "$f" >>"$STATE/migrations.log" 2>&1 \
    || { say "migration $f failed:"; tail -n 20 "$STATE/migrations.log" >&2; exit 1; }
done
DSN="postgres://rollytics:rollytics@127.0.0.1:$PGPORT/rollytics?sslmode=disable"

# 3. Indexer, then API (same env; cwd with ./orm for DB_MIGRATION_DIR).
mkdir -p "$STATE/run"; ln -sfn "$SRC/orm" "$STATE/run/orm"
ENV=(DB_DSN="$DSN" DB_AUTO_MIGRATE=false CHAIN_ID="$CHAIN_ID" VM_TYPE="$VM_TYPE"
  RPC_URL="$COMETBFT_RPC_URL" REST_URL="$COSMOS_REST_URL"
  ACCOUNT_ADDRESS_PREFIX=init PORT="$API_PORT" INDEXER_PORT="$IDX_PORT" LOG_LEVEL="${ROLLYTICS_LOG_LEVEL:-warn}"
  LOG_FORMAT=plain POLLING_INTERVAL="${ROLLYTICS_POLLING_INTERVAL:-1s}" METRICS_ENABLED=false)
if [[ -n "${EVM_JSONRPC_URL:-}" ]]; then ENV+=(JSON_RPC_URL="$EVM_JSONRPC_URL"); fi
# shellcheck disable=SC2206
EXTRA=(${ROLLYTICS_EXTRA_ENV:-})
(cd "$STATE/run" && exec env "${ENV[@]}" "${EXTRA[@]}" "$BIN" indexer >"$STATE/indexer.log" 2>&1) &
echo $! >"$STATE/indexer.pid"
deadline=$((SECONDS + 60))
# Up = answering HTTP: /status is a 500 until the first block is indexed, and rollytics only starts indexing
# once the chain is above height 10 (types.MinChainHeightToStart).
answers() { [[ "$(curl -s -o /dev/null -w '%{http_code}' "$1" 2>/dev/null)" != 000 ]]; }
until answers "http://127.0.0.1:$IDX_PORT/status"; do
  kill -0 "$(cat "$STATE/indexer.pid")" 2>/dev/null || { say "indexer exited:"; tail -n 30 "$STATE/indexer.log" >&2; exit 1; }
  ((SECONDS < deadline)) || { say "indexer not up after 60s:"; tail -n 30 "$STATE/indexer.log" >&2; exit 1; }
  sleep 0.5
done
# Upstream's API loads its collections/by_name list once at start and afterwards only appends collections of
# newer heights: a collection indexed before the API started keeps the NFT count it had then (0 when its mints
# came in later blocks). A comparison of a still chain therefore starts the API once the indexer is at the head.
if [[ -n "${ROLLYTICS_API_AFTER_HEIGHT:-}" ]]; then
  deadline=$((SECONDS + ${ROLLYTICS_API_WAIT_S:-180}))
  indexed() { curl -s "http://127.0.0.1:$IDX_PORT/status" 2>/dev/null \
    | python3 -c 'import json,sys; print(int(json.load(sys.stdin).get("height", 0)))' 2>/dev/null || echo 0; }
  until (($(indexed) >= ROLLYTICS_API_AFTER_HEIGHT)); do
    kill -0 "$(cat "$STATE/indexer.pid")" 2>/dev/null || { say "indexer exited:"; tail -n 30 "$STATE/indexer.log" >&2; exit 1; }
    ((SECONDS < deadline)) || { say "indexer not at height $ROLLYTICS_API_AFTER_HEIGHT after ${ROLLYTICS_API_WAIT_S:-180}s (at $(indexed))"; exit 1; }
    sleep 0.5
  done
fi
(cd "$STATE/run" && exec env "${ENV[@]}" "${EXTRA[@]}" "$BIN" api >"$STATE/api.log" 2>&1) &
echo $! >"$STATE/api.pid"
deadline=$((SECONDS + 60))
until answers "http://127.0.0.1:$API_PORT/status"; do
  kill -0 "$(cat "$STATE/api.pid")" 2>/dev/null || { say "api exited:"; tail -n 30 "$STATE/api.log" >&2; exit 1; }
  ((SECONDS < deadline)) || { say "api not up after 60s:"; tail -n 30 "$STATE/api.log" >&2; exit 1; }
  sleep 0.5
done
say "up: api :$API_PORT (pid $(cat "$STATE/api.pid")), indexer :$IDX_PORT (pid $(cat "$STATE/indexer.pid")), postgres :$PGPORT ($PGDATA)"
cat <<OUT
ROLLYTICS_API_URL=http://127.0.0.1:$API_PORT
ROLLYTICS_INDEXER_URL=http://127.0.0.1:$IDX_PORT
ROLLYTICS_DB_DSN=$DSN
OUT
