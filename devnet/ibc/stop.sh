#!/usr/bin/env bash
# Stops everything start.sh / relayer.sh started in <run-dir>, by recorded pid.
#   usage: devnet/ibc/stop.sh <run-dir>
set -uo pipefail
RUN="${1:?usage: stop.sh <run-dir>}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[[ -f "$RUN/ibc.env" ]] && bash "$HERE/relayer.sh" stop "$RUN"
for id in devnet-a devnet-b; do
  [[ -d "$RUN/$id" ]] && bash "$HERE/../minievm/stop.sh" "$RUN/$id"
done
exit 0
