#!/usr/bin/env bash
# Stops everything start.sh started in <state-dir>, by recorded pid: the executor, then L2, then L1 (the executor
# first, so it does not log errors about vanished nodes). Idempotent; the state dir is kept (logs, homes).
#   usage: devnet/opinit/stop.sh <state-dir>
set -uo pipefail
RUN="${1:?usage: stop.sh <state-dir>}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[[ -d "$RUN" ]] || exit 0
say() { echo "[opinit-devnet] $*" >&2; }

stop_pid() { # pid-file label
  [[ -f "$1" ]] || return 0
  local p
  p="$(cat "$1")"
  if kill -0 "$p" 2>/dev/null; then
    kill -TERM "$p"
    for _ in $(seq 1 40); do kill -0 "$p" 2>/dev/null || break; sleep 0.25; done
    if kill -0 "$p" 2>/dev/null; then say "$2 (pid $p) ignored SIGTERM for 10 s; killing"; kill -KILL "$p"; fi
    say "$2 stopped (pid $p)"
  fi
  rm -f "$1"
}

bash "$HERE/executor.sh" stop "$RUN"
[[ -d "$RUN/l2" ]] && bash "$HERE/../minievm/stop.sh" "$RUN/l2"
stop_pid "$RUN/l1.pid" "L1 initiad"
exit 0
