#!/usr/bin/env bash
# GENESIS_HOOK for devnet/minievm/start.sh (run by start.sh here, not by hand): makes the opinitd executor key a
# funded L2 account, a bridge executor (it signs MsgFinalizeTokenDeposit) and fee-whitelisted.
#   usage: l2-genesis.sh <l2-home> <minitiad>   env: OPINIT_EXECUTOR_ADDRESS (init1…, secp256k1 / coin type 118)
# Genesis is the only easy place: after it, opchild params change only through the admin's MsgExecuteMessages.
set -euo pipefail
HOME_DIR="${1:?usage: l2-genesis.sh <l2-home> <minitiad>}"
BIN="${2:?usage: l2-genesis.sh <l2-home> <minitiad>}"
EXE="${OPINIT_EXECUTOR_ADDRESS:?OPINIT_EXECUTOR_ADDRESS is not set}"
GEN="$HOME_DIR/config/genesis.json"
# The account must exist to sign; its balance only matters if fees are ever charged (it is fee-whitelisted).
"$BIN" genesis add-genesis-account "$EXE" 1000000000000000000umin --home "$HOME_DIR"
# (`minitiad init` leaves bridge_executors = [""]; add-genesis-validator fills it with the operator.)
jq --arg e "$EXE" '.app_state.opchild.params.bridge_executors |= ((. // []) + [$e] | map(select(. != "")) | unique)
  | .app_state.opchild.params.fee_whitelist |= ((. // []) + [$e] | map(select(. != "")) | unique)' "$GEN" >"$GEN.tmp"
mv "$GEN.tmp" "$GEN"
jq -c '.app_state.opchild.params | {bridge_executors, fee_whitelist, admin}' "$GEN"
