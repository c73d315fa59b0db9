#!/usr/bin/env bash
# Stops the devnet node started by start.sh: SIGTERM (CometBFT flushes its
# stores on it), then SIGKILL after a grace period. Only the pid recorded in
# <home>/minitiad.pid is touched.
#   usage: devnet/minievm/stop.sh <home-dir>
set -euo pipefail
HOME_DIR="${1:?usage: stop.sh <home-dir>}"
PID_FILE="$HOME_DIR/minitiad.pid"
[[ -f "$PID_FILE" ]] || { echo "[devnet] no pid file in $HOME_DIR; nothing to stop" >&2; exit 0; }
pid="$(cat "$PID_FILE")"
if kill -0 "$pid" 2>/dev/null; then
  kill -TERM "$pid"
  for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "[devnet] pid $pid ignored SIGTERM for 10s; killing" >&2
    kill -KILL "$pid" || true
  fi
fi
rm -f "$PID_FILE"
echo "[devnet] stopped" >&2
