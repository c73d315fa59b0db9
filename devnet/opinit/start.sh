#!/usr/bin/env bash
# Starts a real OPinit optimistic bridge on loopback, every process by pid:
#   L1  initiad v1.2.2, one validator (build-initiad.sh)
#   L2  minitiad minievm v1.2.18 (devnet/minievm/start.sh, with the executor key added by l2-genesis.sh)
#   the executor opinitd v1.0.16 (build-opinitd.sh): bridge executor on L2 + output submitter on L1; batch
#   submitter off (no DA needed for the token bridge). Its HTTP API: /status, /withdrawal/{seq}, /withdrawals/{addr}.
# The bridge is created on L1 and its info set on L2 by txs, as on a real network; the L2 needs no IBC client.
#   usage: devnet/opinit/start.sh <state-dir>
# On success prints KEY=VALUE lines on stdout (also in <state-dir>/opinit.env). Logs: <state-dir>/*.log.
# Stop with stop.sh <state-dir>. The executor alone: executor.sh stop|start|restart|recover <state-dir> (recover:
# after a challenger deleted an output).
#
# Env (all optional): L1_CHAIN_ID (opinit-l1-1), L2_CHAIN_ID (opinit-l2-1), SUBMISSION_INTERVAL (5s),
#   FINALIZATION_PERIOD (10s), L1_TIMEOUT_COMMIT (500ms), L2_BLOCK_INTERVAL (500ms), DEVNET_ACCOUNTS (2: test-mnemonic
#   accounts 0 = L2 operator and 1 = user, funded with umin on L2; each more costs ~0.4 s of start-up),
#   EXECUTOR_POLLING_INTERVAL (100ms), OPINIT_PORT_BASE_L1 / OPINIT_PORT_BASE_L2 (picked free otherwise).
#
# Keys. L1 keys live in initiad's test keyring (<L1_HOME>) and are eth_secp256k1, coin type 60, derived from the
#   public test mnemonic of devnet/minievm/accounts.ts ("test test … junk", m/44'/60'/0'/0/i): validator = i 0
#   (bridge creator), user = i 1 (the test user: same address on L1 and L2, funded on both), challenger = i 2.
#   A TypeScript signer uses deriveDevAccount(i) and the ethsecp256k1 signing of devnet/minievm/cosmos-tx.ts.
#   The proposer (L1) and bridge executor (L2) keys live only in opinitd's keyring (<OPINIT_HOME>): secp256k1, coin
#   type 118, fresh mnemonics per run, as upstream's e2e runs them (opinitd can import an eth_secp256k1 key with the
#   same address, but signing with one was not tried). The proposer is funded in L1 genesis, the executor in L2
#   genesis (+ opchild bridge_executors and fee_whitelist).
# Fees. L1 runs fee-less: genesis zeroes dynamicfee base/min gas prices and the node's minimum gas price is 0uinit,
#   so balance changes equal the amounts moved (a tx may still carry fees; they are charged). L2: 0umin, as
#   devnet/minievm/start.sh.
set -euo pipefail

RUN="${1:?usage: start.sh <state-dir>}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
say() { echo "[opinit-devnet] $*" >&2; }
now_ms() { date +%s%3N; }
T0="$(now_ms)"
mkdir -p "$RUN"; RUN="$(cd "$RUN" && pwd)"

L1_CHAIN_ID="${L1_CHAIN_ID:-opinit-l1-1}"
L2_CHAIN_ID="${L2_CHAIN_ID:-opinit-l2-1}"
SUBMISSION_INTERVAL="${SUBMISSION_INTERVAL:-5s}"
FINALIZATION_PERIOD="${FINALIZATION_PERIOD:-10s}"
L1_TIMEOUT_COMMIT="${L1_TIMEOUT_COMMIT:-500ms}"
L2_BLOCK_INTERVAL="${L2_BLOCK_INTERVAL:-500ms}"
MNEMONIC='test test test test test test test test test test test junk'   # devnet/minievm/accounts.ts
L1_HOME="$RUN/l1" L2_HOME="$RUN/l2" OPINIT_HOME="$RUN/opinit"

for p in "$RUN/l1.pid" "$L2_HOME/minitiad.pid" "$RUN/executor.pid"; do
  if [[ -f "$p" ]] && kill -0 "$(cat "$p")" 2>/dev/null; then
    say "already running from $RUN (pid $(cat "$p") in $p); run stop.sh first"; exit 1
  fi
done

# 1. Binaries, built once into $CHAIN_INFRA_CACHE (exit 2 = blocked; the build scripts say why on stderr).
INITIAD="$(bash "$HERE/build-initiad.sh")" || { say "FAILED: initiad could not be built"; exit 2; }
OPINITD="$(bash "$HERE/build-opinitd.sh")" || { say "FAILED: opinitd could not be built"; exit 2; }
MINITIAD="$(bash "$HERE/../minievm/build.sh")" || { say "FAILED: minitiad could not be built"; exit 2; }
L1_LIB="$(dirname "$INITIAD")"   # libmovevm / libcompiler live beside initiad
l1d() { LD_LIBRARY_PATH="$L1_LIB" "$INITIAD" "$@"; }
opd() { "$OPINITD" --home "$OPINIT_HOME" "$@"; }

# A fresh devnet each time; only what this script writes is removed (the state dir may hold other files).
rm -rf "$L1_HOME" "$L2_HOME" "$OPINIT_HOME"
( cd "$RUN" && rm -f opinit.env l2.env l1-init.log l1.log l2-start.log cli.log executor.log opinit-init.log bridge.json \
  opinit-proposer-key.json opinit-executor-key.json l1-key-{validator,user,challenger}.json l2-key-user.json \
  create-bridge.json create-bridge.tx.json set-bridge-info.json set-bridge-info.tx.json )

# 2. Ports: two bases whose ports (base + 17 REST, 45/46 EVM JSON-RPC/WS, 56 P2P, 57 RPC, 58, 90 gRPC, 99
#    executor) are free. Bases in 10000-19900: below the ephemeral range and apart from the IBC devnets' 20000-31900.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pick_base() {
  local skip="${1:-0}" b o ok
  for _ in $(seq 1 200); do
    b=$((10000 + (RANDOM % 100) * 100))
    [[ "$b" == "$skip" ]] && continue
    ok=1
    for o in 17 45 46 56 57 58 90 99; do port_free $((b + o)) || { ok=0; break; }; done
    [[ $ok == 1 ]] && { echo "$b"; return 0; }
  done
  say "no free port base found in 10000-19900"; return 1
}
L1_BASE="${OPINIT_PORT_BASE_L1:-$(pick_base)}"
L2_BASE="${OPINIT_PORT_BASE_L2:-$(pick_base "$L1_BASE")}"
L1_RPC_PORT=$((L1_BASE + 57)) L1_P2P_PORT=$((L1_BASE + 56)) L1_REST_PORT=$((L1_BASE + 17)) L1_GRPC_PORT=$((L1_BASE + 90))
EXECUTOR_PORT=$((L1_BASE + 99))
L1_RPC_URL="http://127.0.0.1:$L1_RPC_PORT" L1_REST_URL="http://127.0.0.1:$L1_REST_PORT"
EXECUTOR_URL="http://127.0.0.1:$EXECUTOR_PORT"

# Any failure stops what was started (no half-started bridge left behind).
on_err() {
  local code=$? line=$1
  trap - ERR
  say "FAILED at start.sh line $line (exit $code); logs in $RUN"
  bash "$HERE/stop.sh" "$RUN" >&2 || true
  exit "$code"
}
trap 'on_err $LINENO' ERR

# Polls CometBFT for a tx until it is in a block; fails unless it succeeded. Prints the /tx answer.
wait_tx() { # rpc-url hash label
  local rpc="$1" hash="$2" label="$3" out
  for _ in $(seq 1 150); do
    if out="$(curl -sf "$rpc/tx?hash=0x$hash")" && [[ "$(jq -r '.result.tx_result.code // empty' <<<"$out")" != "" ]]; then
      [[ "$(jq -r '.result.tx_result.code' <<<"$out")" == 0 ]] && { echo "$out"; return 0; }
      say "$label failed in block: $(jq -c '.result.tx_result | {code, codespace, log}' <<<"$out")"; return 1
    fi
    sleep 0.2
  done
  say "$label $hash not in a block after 30 s"; return 1
}
# Broadcast answer (sync) -> hash, or the CheckTx error.
tx_hash() { # json-file label
  local code
  code="$(jq -r '.code // 0' "$1" 2>/dev/null || echo parse)"
  [[ "$code" == 0 ]] || { say "$2 rejected: $(head -c 600 "$1") $(tail -n 3 "$RUN/cli.log")"; return 1; }
  jq -r .txhash "$1"
}

# 3. opinitd keys (secp256k1, coin type 118): the L1 proposer and the L2 bridge executor.
opd keys add "$L1_CHAIN_ID" proposer --output json >"$RUN/opinit-proposer-key.json"
opd keys add "$L2_CHAIN_ID" executor --output json >"$RUN/opinit-executor-key.json"
PROPOSER_ADDRESS="$(jq -r .proposer.address "$RUN/opinit-proposer-key.json")"
EXECUTOR_ADDRESS="$(jq -r .executor.address "$RUN/opinit-executor-key.json")"

# 4. L1 and L2 start in parallel.
l1_start() {
  local kr=(--keyring-backend test --home "$L1_HOME") name idx
  l1d init l1-validator --chain-id "$L1_CHAIN_ID" --home "$L1_HOME" >"$RUN/l1-init.log" 2>&1
  # The three CLI keys in parallel (each initiad call costs ~0.5 s of start-up; separate keyring files).
  local pids=() p
  for k in validator:0 user:1 challenger:2; do
    name="${k%:*}" idx="${k#*:}"
    echo "$MNEMONIC" | l1d keys add "$name" --recover --index "$idx" "${kr[@]}" --output json >"$RUN/l1-key-$name.json" 2>>"$RUN/l1-init.log" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  # Genesis accounts written as `genesis add-genesis-account` writes them (BaseAccount, next account number, no
  # supply: initia computes it), in one edit instead of one initiad run each. Fee-less: the dynamic-fee ante
  # compares the tx's gas price with base_gas_price (0.015uinit by default), so both base and min go to 0.
  python3 - "$L1_HOME/config/genesis.json" \
    "$(jq -r .address "$RUN/l1-key-validator.json")=1000000000000000" \
    "$(jq -r .address "$RUN/l1-key-user.json")=100000000000000" \
    "$(jq -r .address "$RUN/l1-key-challenger.json")=1000000000000" \
    "$PROPOSER_ADDRESS=1000000000000" <<'PY'
import json, sys
path, accounts = sys.argv[1], sys.argv[2:]
g = json.load(open(path))
auth, bank = g["app_state"]["auth"], g["app_state"]["bank"]
for a in accounts:
    addr, amount = a.split("=")
    auth["accounts"].append({"@type": "/cosmos.auth.v1beta1.BaseAccount", "address": addr, "pub_key": None,
                             "account_number": str(len(auth["accounts"])), "sequence": "0"})
    bank["balances"].append({"address": addr, "coins": [{"denom": "uinit", "amount": amount}]})
fee = g["app_state"]["dynamicfee"]["params"]
fee["base_gas_price"] = fee["min_base_gas_price"] = "0.000000000000000000"
json.dump(g, open(path, "w"), indent=1)
PY
  # mstaking needs at least min_voting_power (1 INIT = 1e6 uinit) bonded.
  l1d genesis gentx validator 10000000000uinit --chain-id "$L1_CHAIN_ID" "${kr[@]}" >>"$RUN/l1-init.log" 2>&1
  l1d genesis collect-gentxs --home "$L1_HOME" >>"$RUN/l1-init.log" 2>&1
  local cfg="$L1_HOME/config/config.toml"
  sed -i -E -e "s/^timeout_commit = .*/timeout_commit = \"$L1_TIMEOUT_COMMIT\"/" \
    -e 's/^pprof_laddr = .*/pprof_laddr = ""/' -e 's/^indexer = .*/indexer = "kv"/' \
    -e 's/^create_empty_blocks = .*/create_empty_blocks = true/' "$cfg"   # finalization needs L1 time to move
  nohup env LD_LIBRARY_PATH="$L1_LIB" "$INITIAD" start --home "$L1_HOME" --minimum-gas-prices 0uinit \
    --rpc.laddr "tcp://127.0.0.1:$L1_RPC_PORT" --p2p.laddr "tcp://127.0.0.1:$L1_P2P_PORT" --rpc.pprof_laddr "" \
    --api.enable=true --api.address "tcp://127.0.0.1:$L1_REST_PORT" \
    --grpc.enable=true --grpc.address "127.0.0.1:$L1_GRPC_PORT" >"$RUN/l1.log" 2>&1 &
  echo $! >"$RUN/l1.pid"
  local h deadline=$((SECONDS + 90))
  until h="$(curl -sf "$L1_RPC_URL/status" | jq -r .result.sync_info.latest_block_height 2>/dev/null)" && [[ "${h:-0}" -ge 1 ]] \
    && curl -sf "$L1_REST_URL/cosmos/base/tendermint/v1beta1/node_info" >/dev/null; do
    kill -0 "$(cat "$RUN/l1.pid")" 2>/dev/null || { say "initiad exited during start-up:"; tail -n 30 "$RUN/l1.log" >&2; return 1; }
    ((SECONDS < deadline)) || { say "L1 not ready after 90 s:"; tail -n 30 "$RUN/l1.log" >&2; return 1; }
    sleep 0.2
  done
  say "L1 ready at height $h ($(( $(now_ms) - T0 )) ms)"
}
# 5. The bridge on L1, created as soon as L1 is up (L2 is still starting). The batch submitter is off, so its
#    address is only a placeholder (the validator's).
create_bridge() {
  local hash
  jq -n --arg c "$(jq -r .address "$RUN/l1-key-challenger.json")" --arg p "$PROPOSER_ADDRESS" \
    --arg b "$(jq -r .address "$RUN/l1-key-validator.json")" --arg si "$SUBMISSION_INTERVAL" --arg fp "$FINALIZATION_PERIOD" \
    '{challenger: $c, proposer: $p, submission_interval: $si, finalization_period: $fp, submission_start_height: "1",
      batch_info: {submitter: $b, chain_type: "INITIA"}, metadata: "", oracle_enabled: false}' >"$RUN/bridge.json"
  l1d tx ophost create-bridge "$RUN/bridge.json" --from validator --keyring-backend test --home "$L1_HOME" \
    --chain-id "$L1_CHAIN_ID" --node "tcp://127.0.0.1:$L1_RPC_PORT" --gas auto --gas-adjustment 1.5 -b sync -y -o json \
    >"$RUN/create-bridge.json" 2>>"$RUN/cli.log" || true
  hash="$(tx_hash "$RUN/create-bridge.json" create-bridge)"
  wait_tx "$L1_RPC_URL" "$hash" create-bridge >"$RUN/create-bridge.tx.json"
  say "bridge created ($(( $(now_ms) - T0 )) ms)"
}
l1_job() { l1_start; create_bridge; }   # not `l1_start && …`: that would switch off set -e inside l1_start
l1_job &
L1_JOB=$!
OPINIT_EXECUTOR_ADDRESS="$EXECUTOR_ADDRESS" GENESIS_HOOK="$HERE/l2-genesis.sh" CHAIN_ID="$L2_CHAIN_ID" \
  PORT_BASE="$L2_BASE" BLOCK_INTERVAL="$L2_BLOCK_INTERVAL" DEVNET_ACCOUNTS="${DEVNET_ACCOUNTS:-2}" \
  bash "$HERE/../minievm/start.sh" "$L2_HOME" >"$RUN/l2.env" 2>"$RUN/l2-start.log" &
L2_JOB=$!
opd init executor >"$RUN/opinit-init.log" 2>&1   # config file only; edited below
l1_ok=0 l2_ok=0
wait "$L2_JOB" || l2_ok=$?
((l2_ok == 0)) || { say "L2 failed to start:"; tail -n 20 "$RUN/l2-start.log" >&2; false; }
l2val() { grep "^$1=" "$RUN/l2.env" | cut -d= -f2-; }
L2_RPC_URL="$(l2val COMETBFT_RPC_URL)" L2_REST_URL="$(l2val COSMOS_REST_URL)" L2_EVM_RPC_URL="$(l2val EVM_JSONRPC_URL)"
say "L2 ready ($(( $(now_ms) - T0 )) ms)"
# The test user's key in the L2 keyring too (same key, same address), so both CLIs sign with --from user.
echo "$MNEMONIC" | "$MINITIAD" keys add user --recover --index 1 --coin-type 60 --key-type eth_secp256k1 \
  --keyring-backend test --home "$L2_HOME" --output json >"$RUN/l2-key-user.json" 2>>"$RUN/cli.log" &
L2_KEY_JOB=$!
wait "$L1_JOB" || l1_ok=$?
((l1_ok == 0)) || { say "L1 or the bridge creation failed (see $RUN/l1-init.log, $RUN/l1.log, $RUN/cli.log)"; false; }
addr() { jq -r .address "$RUN/l1-key-$1.json"; }
VALIDATOR_ADDRESS="$(addr validator)" USER_ADDRESS="$(addr user)" CHALLENGER_ADDRESS="$(addr challenger)"
BRIDGE_ID="$(jq -r '[.result.tx_result.events[] | select(.type=="create_bridge") | .attributes[] | select(.key=="bridge_id") | .value][0]' "$RUN/create-bridge.tx.json")"
BRIDGE_ADDR="$(curl -sf "$L1_REST_URL/opinit/ophost/v1/bridges/$BRIDGE_ID" | jq -r .bridge_addr)"
[[ "$BRIDGE_ADDR" == init1* ]] || { say "no bridge address for bridge $BRIDGE_ID"; false; }

# 6. Bridge info on L2, signed by the operator (add-genesis-validator made it a bridge executor too). No L1 IBC
#    client: the token bridge does not use one, and MsgSetBridgeInfo accepts an empty client id.
"$MINITIAD" tx opchild set-bridge-info "$BRIDGE_ID" "$BRIDGE_ADDR" "$L1_CHAIN_ID" "" "$RUN/bridge.json" --from operator \
  --keyring-backend test --home "$L2_HOME" --chain-id "$L2_CHAIN_ID" --node "${L2_RPC_URL/http:/tcp:}" \
  --gas auto --gas-adjustment 1.5 --fees 0umin -b sync -y -o json >"$RUN/set-bridge-info.json" 2>>"$RUN/cli.log" || true
hash="$(tx_hash "$RUN/set-bridge-info.json" set-bridge-info)"
wait_tx "$L2_RPC_URL" "$hash" set-bridge-info >"$RUN/set-bridge-info.tx.json"
got="$(curl -sf "$L2_REST_URL/opinit/opchild/v1/bridge_info" | jq -r .bridge_info.bridge_id)"
[[ "$got" == "$BRIDGE_ID" ]] || { say "L2 bridge info not set (bridge_id '$got')"; false; }
say "bridge $BRIDGE_ID ($BRIDGE_ADDR) info set on L2 ($(( $(now_ms) - T0 )) ms)"

wait "$L2_KEY_JOB"
[[ "$(jq -r .address "$RUN/l2-key-user.json")" == "$USER_ADDRESS" ]] || { say "L2 user key address differs from L1's"; false; }

# The L2 denom of uinit: "l2/" + hex(sha3-256(bridge id as 8 big-endian bytes ++ "uinit")) (OPinit x/ophost L2Denom).
L2_DENOM_UINIT="$(python3 -c 'import hashlib,struct,sys; print("l2/"+hashlib.sha3_256(struct.pack(">Q",int(sys.argv[1]))+b"uinit").hexdigest())' "$BRIDGE_ID")"

# 7. The executor config; executor.sh starts it from this env file.
jq --arg l1 "$L1_CHAIN_ID" --arg l2 "$L2_CHAIN_ID" --arg r1 "tcp://127.0.0.1:$L1_RPC_PORT" \
  --arg r2 "${L2_RPC_URL/http:/tcp:}" --arg srv "127.0.0.1:$EXECUTOR_PORT" '
  .server.address = $srv
  | .l1_node += {chain_id: $l1, rpc_address: $r1, gas_price: "0uinit"}
  | .l2_node += {chain_id: $l2, rpc_address: $r2, gas_price: ""}
  | .da_node += {chain_id: $l1, rpc_address: $r1, gas_price: "0uinit"}
  | .bridge_executor = "executor" | .disable_output_submitter = false | .disable_batch_submitter = true' \
  "$OPINIT_HOME/executor.json" >"$OPINIT_HOME/executor.json.tmp"
mv "$OPINIT_HOME/executor.json.tmp" "$OPINIT_HOME/executor.json"

cat >"$RUN/opinit.env" <<ENV
L1_CHAIN_ID=$L1_CHAIN_ID
L1_RPC_URL=$L1_RPC_URL
L1_REST_URL=$L1_REST_URL
L1_GRPC_ADDR=127.0.0.1:$L1_GRPC_PORT
L1_DENOM=uinit
L1_GAS_PRICE=0uinit
L2_CHAIN_ID=$L2_CHAIN_ID
L2_RPC_URL=$L2_RPC_URL
L2_REST_URL=$L2_REST_URL
L2_EVM_RPC_URL=$L2_EVM_RPC_URL
L2_DENOM_UINIT=$L2_DENOM_UINIT
L2_GAS_PRICE=0umin
BRIDGE_ID=$BRIDGE_ID
BRIDGE_ADDR=$BRIDGE_ADDR
SUBMISSION_INTERVAL=$SUBMISSION_INTERVAL
FINALIZATION_PERIOD=$FINALIZATION_PERIOD
EXECUTOR_URL=$EXECUTOR_URL
L1_HOME=$L1_HOME
L2_HOME=$L2_HOME
OPINIT_HOME=$OPINIT_HOME
KEYRING_BACKEND=test
USER_KEY=user
USER_ADDRESS=$USER_ADDRESS
USER_ACCOUNT_INDEX=1
USER_KEY_TYPE=eth_secp256k1
CHALLENGER_KEY=challenger
CHALLENGER_ADDRESS=$CHALLENGER_ADDRESS
CHALLENGER_ACCOUNT_INDEX=2
VALIDATOR_KEY=validator
VALIDATOR_ADDRESS=$VALIDATOR_ADDRESS
L2_OPERATOR_KEY=operator
PROPOSER_ADDRESS=$PROPOSER_ADDRESS
EXECUTOR_ADDRESS=$EXECUTOR_ADDRESS
INITIAD=$INITIAD
INITIAD_LD_LIBRARY_PATH=$L1_LIB
MINITIAD=$MINITIAD
OPINITD=$OPINITD
ENV

# 8. The executor; ready when /status answers.
bash "$HERE/executor.sh" start "$RUN"
trap - ERR
say "ready in $(( $(now_ms) - T0 )) ms"
cat "$RUN/opinit.env"
