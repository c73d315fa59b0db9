#!/usr/bin/env bash
# Stops what start.sh started, by pid, in the order that keeps every process
# happy: the API, then the indexer (it panics if Postgres goes first), then
# Postgres (fast shutdown via its postmaster pid), and removes the cluster.
#   usage: devnet/rollytics/stop.sh <state-dir>    (KEEP_PGDATA=1 keeps the data dir)
set -euo pipefail
STATE="${1:?usage: stop.sh <state-dir>}"
say() { echo "[rollytics] $*" >&2; }
stop_pid() { # name pidfile signal
  local f="$STATE/$1.pid" p
  [[ -f "$f" ]] || return 0
  p="$(cat "$f")"
  if kill -0 "$p" 2>/dev/null; then
    kill -TERM "$p" 2>/dev/null || true
    for _ in $(seq 1 40); do kill -0 "$p" 2>/dev/null || break; sleep 0.25; done
    if kill -0 "$p" 2>/dev/null; then say "$1 (pid $p) ignored SIGTERM for 10s; killing"; kill -KILL "$p" 2>/dev/null || true; fi
  fi
  rm -f "$f"
}
stop_pid api
stop_pid indexer
if [[ -f "$STATE/pgdata.path" ]]; then
  PGDATA="$(cat "$STATE/pgdata.path")"
  if [[ -f "$PGDATA/postmaster.pid" ]]; then
    p="$(head -n1 "$PGDATA/postmaster.pid")"
    # SIGINT = Postgres' "fast" shutdown: roll back sessions, checkpoint, exit.
    if kill -0 "$p" 2>/dev/null; then
      kill -INT "$p"
      for _ in $(seq 1 80); do kill -0 "$p" 2>/dev/null || break; sleep 0.25; done
      if kill -0 "$p" 2>/dev/null; then say "postgres (pid $p) still up after 20s; SIGQUIT"; kill -QUIT "$p" 2>/dev/null || true; sleep 1; fi
    fi
  fi
  if [[ "${KEEP_PGDATA:-0}" != 1 ]]; then rm -rf "$PGDATA"; rm -f "$STATE/pgdata.path"; fi
fi
say "stopped"
