#!/usr/bin/env bash
# Stops / starts the OPinit executor (opinitd) of a bridge devnet made by start.sh, by pid. Tests stop it mid-way
# (e.g. between a deposit on L1 and its relay) and start it again: it resumes from its own db in <OPINIT_HOME>,
# catching up on the L1 and L2 blocks it missed.
#   usage: devnet/opinit/executor.sh start|stop|restart|recover <state-dir>
# start:   `opinitd start executor` in the background (pid in <state-dir>/executor.pid, log appended to
#          <state-dir>/executor.log); returns once /status answers. No-op if it runs already.
# stop:    SIGTERM the recorded pid (SIGKILL after 10 s). No-op if it is not running.
# recover: after a challenger's delete_output. The executor does not watch delete_output: it keeps proposing
#          its next index and L1 answers "expected N, got M: invalid output index" forever, across restarts (the
#          rejected MsgProposeOutput is kept in its db). This stops it, drops its synced heights and pending msgs
#          (`opinitd reset-heights executor`; withdrawals and trees are kept) and points l2_start_height at the
#          current L2 height, so it resumes right after the last output still on L1 and re-proposes from the
#          deleted index. (With l2_start_height 1 it would replay the whole L2, ~10 blocks/s.)
set -euo pipefail
USAGE="usage: executor.sh start|stop|restart|recover <state-dir>"
CMD="${1:?$USAGE}"
RUN="${2:?$USAGE}"
RUN="$(cd "$RUN" 2>/dev/null && pwd)" || { [[ "$CMD" == stop ]] && exit 0; echo "[opinit-executor] no directory $2" >&2; exit 1; }
PID="$RUN/executor.pid"
LOG="$RUN/executor.log"
say() { echo "[opinit-executor] $*" >&2; }
# start/recover read the devnet's env file; stop needs only the pid file.
if [[ "$CMD" != stop && ! -f "$RUN/opinit.env" ]]; then say "no $RUN/opinit.env: start the devnet with start.sh first"; exit 1; fi
val() { grep "^$1=" "$RUN/opinit.env" | cut -d= -f2-; }
running() { [[ -f "$PID" ]] && kill -0 "$(cat "$PID")" 2>/dev/null; }

do_stop() {
  running || { rm -f "$PID"; say "not running"; return 0; }
  local p
  p="$(cat "$PID")"
  kill -TERM "$p"
  for _ in $(seq 1 40); do kill -0 "$p" 2>/dev/null || break; sleep 0.25; done
  if kill -0 "$p" 2>/dev/null; then say "pid $p ignored SIGTERM for 10 s; killing"; kill -KILL "$p" || true; fi
  rm -f "$PID"
  say "stopped (pid $p)"
}

do_start() {
  if running; then say "already running (pid $(cat "$PID"))"; return 0; fi
  local url t0=$SECONDS
  url="$(val EXECUTOR_URL)"
  echo "=== executor start $(date -u +%FT%TZ) ===" >>"$LOG"
  nohup "$(val OPINITD)" start executor --home "$(val OPINIT_HOME)" \
    --polling-interval "${EXECUTOR_POLLING_INTERVAL:-100ms}" --log-format json >>"$LOG" 2>&1 &
  echo $! >"$PID"
  # /status answers once the executor has initialised its L1/L2 nodes and keys (its server starts last).
  until curl -sf "$url/status" >/dev/null 2>&1; do
    running || { say "opinitd exited during start-up; last log lines:"; tail -n 30 "$LOG" >&2; rm -f "$PID"; return 1; }
    if ((SECONDS - t0 > ${EXECUTOR_START_TIMEOUT_S:-60})); then
      say "no /status after ${EXECUTOR_START_TIMEOUT_S:-60} s; last log lines:"; tail -n 30 "$LOG" >&2; do_stop; return 1
    fi
    sleep 0.2
  done
  say "started (pid $(cat "$PID")), $url/status answers"
}

do_recover() {
  do_stop
  local home h
  home="$(val OPINIT_HOME)"
  "$(val OPINITD)" reset-heights executor --home "$home" >>"$LOG" 2>&1
  h="$(curl -sf "$(val L2_RPC_URL)/status" | jq -r .result.sync_info.latest_block_height)"
  [[ "$h" =~ ^[0-9]+$ ]] || { say "cannot read the L2 height from $(val L2_RPC_URL)"; return 1; }
  jq --argjson h "$h" '.l2_start_height = $h' "$home/executor.json" >"$home/executor.json.tmp"
  mv "$home/executor.json.tmp" "$home/executor.json"
  say "heights reset, l2_start_height = $h"
  do_start
}

case "$CMD" in
  start) do_start ;;
  stop) do_stop ;;
  restart) do_stop; do_start ;;
  recover) do_recover ;;
  *) say "$USAGE"; exit 2 ;;
esac
