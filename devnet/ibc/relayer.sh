#!/usr/bin/env bash
# Starts / stops the relayer of an IBC devnet pair created by start.sh, by pid.
#   usage: devnet/ibc/relayer.sh start|stop|clear <run-dir>
# start: `rly start ab` in the background (pid in <run-dir>/rly.pid, log in
#        <run-dir>/rly.log), returns once it relays (its first processor log line).
# stop:  SIGTERM the recorded pid (SIGKILL after 10 s).
# clear: relay every pending packet once (`rly tx flush ab`), no daemon.
set -euo pipefail
CMD="${1:?usage: relayer.sh start|stop|clear <run-dir>}"
RUN="${2:?usage: relayer.sh start|stop|clear <run-dir>}"
# shellcheck disable=SC1091
source "$RUN/ibc.env"
PID="$RUN/rly.pid"
say() { echo "[ibc-relayer] $*" >&2; }
case "$CMD" in
  start)
    if [[ -f "$PID" ]] && kill -0 "$(cat "$PID")" 2>/dev/null; then say "already running (pid $(cat "$PID"))"; exit 0; fi
    : >"$RUN/rly.log"
    nohup "$RLY_BIN" start "$RLY_PATH" --home "$RLY_HOME" --flush-interval 2s --log-format json \
      >>"$RUN/rly.log" 2>&1 &
    echo $! >"$PID"
    for _ in $(seq 1 120); do
      grep -q 'Chain is in sync' "$RUN/rly.log" 2>/dev/null && break
      kill -0 "$(cat "$PID")" 2>/dev/null || { say "rly exited:"; tail -n 20 "$RUN/rly.log" >&2; exit 1; }
      sleep 0.25
    done
    say "started (pid $(cat "$PID"))"
    ;;
  stop)
    [[ -f "$PID" ]] || exit 0
    p="$(cat "$PID")"
    if kill -0 "$p" 2>/dev/null; then
      kill -TERM "$p"
      for _ in $(seq 1 40); do kill -0 "$p" 2>/dev/null || break; sleep 0.25; done
      kill -0 "$p" 2>/dev/null && kill -KILL "$p"
    fi
    rm -f "$PID"
    say "stopped"
    ;;
  clear)
    "$RLY_BIN" tx flush "$RLY_PATH" --home "$RLY_HOME" >>"$RUN/rly-flush.log" 2>&1
    ;;
  *) say "usage: relayer.sh start|stop|clear <run-dir>"; exit 2 ;;
esac
