#!/usr/bin/env bash
# Initialises and starts a single-node rollup devnet on loopback: minievm by default, or minimove / miniwasm
# with FLAVOR=minimove|miniwasm (the same genesis steps, keys and ports; no EVM JSON-RPC on those two).
#   usage: devnet/minievm/start.sh <home-dir>
# Prints, on success, the env lines our ingest needs (CHAIN_ID, COMETBFT_RPC_URL,
# COSMOS_REST_URL, and EVM_JSONRPC_URL on minievm). The node runs in the background; its pid is
# in <home>/minitiad.pid and its log in <home>/node.log. Stop it with stop.sh.
#
# Env (all optional): FLAVOR (minievm), CHAIN_ID (<flavor>-devnet-1), DEVNET_ACCOUNTS (20),
#   PORT_BASE (36600; tests pick a free one below 32768, see devnet-process.ts): RPC=base+57, P2P=base+56, REST=base+17, GRPC=base+90,
#   JSON-RPC=base+45, JSON-RPC WS=base+46 — away from the 26657/1317/8545
#   defaults so it never collides with another node on a shared machine.
#   TIMEOUT_COMMIT (500ms), BLOCK_INTERVAL (unset: minitia's 100ms default).
#   EMPTY_BLOCKS (true): false = blocks only when txs arrive (start-up then
#   waits for height 1 instead of 2). minievm's app-side mempool holds txs with
#   future nonces outside CometBFT's, so concurrent senders can stall until
#   create_empty_blocks_interval: use it for a still head AFTER traffic.
#   RESUME=1: restart a stopped node on its existing home (no init), re-applying
#   the config edits; with EMPTY_BLOCKS=false the head then stops where it is
#   (the rollytics differential test compares both indexers on a still chain).
#   GENESIS_FOR_ROLLYTICS=1: the two genesis edits the reference indexer
#   rollytics needs (devnet/rollytics/, bench/reports/2026-11-24-rollytics.md): the opchild
#   validator's operator_address = valoper of the consensus key (as OPinit's
#   launch tools set it; else rollytics' block endpoints answer 500 "validator
#   not found"), and the EVM fee denom = umin, which the genesis accounts hold.
#   GENESIS_HOOK=<script>: extra genesis edits before the first start (step 5c); not run on RESUME.
set -euo pipefail

HOME_DIR="${1:?usage: start.sh <home-dir>}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
FLAVOR="${FLAVOR:-minievm}"
case "$FLAVOR" in minievm | minimove | miniwasm) ;; *) echo "FLAVOR must be minievm, minimove or miniwasm" >&2; exit 2 ;; esac
CHAIN_ID="${CHAIN_ID:-$FLAVOR-devnet-1}"
ACCOUNTS="${DEVNET_ACCOUNTS:-20}"
BASE="${PORT_BASE:-36600}"
RPC_PORT=$((BASE + 57)); P2P_PORT=$((BASE + 56)); REST_PORT=$((BASE + 17))
GRPC_PORT=$((BASE + 90)); JSONRPC_PORT=$((BASE + 45)); JSONRPC_WS_PORT=$((BASE + 46))
TIMEOUT_COMMIT="${TIMEOUT_COMMIT:-500ms}"
DENOM=umin                    # the base denom of all three flavours (types.BaseDenom)
# Move balances are u64 (initia's MoveBankKeeper.MintCoins panics on more): 1e17 per account keeps even 180 accounts
# under 2^64. minievm's and miniwasm's are big ints.
if [[ "$FLAVOR" == minimove ]]; then GENESIS_BALANCE="100000000000000000${DENOM}"; else GENESIS_BALANCE="1000000000000000000000000${DENOM}"; fi
MNEMONIC='test test test test test test test test test test test junk'  # same as accounts.ts

say() { echo "[$FLAVOR-devnet] $*" >&2; }

# 1. Binary: built once into ~/.cache/chain-infra (exit 2 = blocked, see build.sh). The Move and Wasm nodes load
#    their VM library from the binary's folder.
BIN="$(bash "$HERE/../$FLAVOR/build.sh")"
export LD_LIBRARY_PATH="$(dirname "$BIN")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

if [[ -f "$HOME_DIR/minitiad.pid" ]] && kill -0 "$(cat "$HOME_DIR/minitiad.pid")" 2>/dev/null; then
  say "a node is already running from $HOME_DIR (pid $(cat "$HOME_DIR/minitiad.pid")); run stop.sh first"
  exit 1
fi
KR=(--keyring-backend test --home "$HOME_DIR")
if [[ "${RESUME:-0}" == 1 ]]; then
  [[ -f "$HOME_DIR/config/genesis.json" ]] || { say "RESUME=1 but no node home at $HOME_DIR"; exit 1; }
  say "resuming the node in $HOME_DIR (config edits re-applied, chain data kept)"
else
rm -rf "$HOME_DIR"
mkdir -p "$HOME_DIR"
fi
# miniwasm's binary makes a temporary directory (a wasm cache) at every invocation and leaves it: inside the home,
# they go with it.
mkdir -p "$HOME_DIR/tmp"
export TMPDIR="$HOME_DIR/tmp"
if [[ "${RESUME:-0}" != 1 ]]; then

# 2. Node home: config, genesis, node and consensus keys.
"$BIN" init devnet --chain-id "$CHAIN_ID" --home "$HOME_DIR" >"$HOME_DIR/init.log" 2>&1

# 3. Operator key = account 0 of the test mnemonic (ethsecp256k1, coin type 60: all three flavours' keyring),
#    so the traffic generator holds the same key as the validator/sequencer.
echo "$MNEMONIC" | "$BIN" keys add operator --recover --coin-type 60 --key-type eth_secp256k1 "${KR[@]}" \
  >"$HOME_DIR/keys.log" 2>&1

# 4. Funded genesis accounts: the first $ACCOUNTS addresses of the mnemonic.
for addr in $(cd "$REPO" && npx tsx devnet/minievm/accounts.ts "$ACCOUNTS"); do
  "$BIN" genesis add-genesis-account "$addr" "$GENESIS_BALANCE" --home "$HOME_DIR" >>"$HOME_DIR/init.log" 2>&1
done

# 5. OPinit rollups have no staking: the sequencer is an opchild genesis
#    validator, and add-genesis-validator also makes it the bridge executor.
"$BIN" genesis add-genesis-validator operator "${KR[@]}" >>"$HOME_DIR/init.log" 2>&1

# 5b. Optional genesis edits for rollytics (see the header).
if [[ "${GENESIS_FOR_ROLLYTICS:-0}" == 1 ]]; then
  cons_hex="$(jq -r .address "$HOME_DIR/config/priv_validator_key.json")"
  valoper="$("$BIN" keys parse "$cons_hex" --output json | jq -r '.formats[] | select(startswith("initvaloper1"))')"
  [[ -n "$valoper" ]] || { say "could not derive the valoper of consensus address $cons_hex"; exit 1; }
  fee_edit='.'; [[ "$FLAVOR" == minievm ]] && fee_edit='.app_state.evm.params.fee_denom = $d'
  jq --arg v "$valoper" --arg d "$DENOM" \
    "$fee_edit | .app_state.opchild.validators[0].operator_address = \$v" \
    "$HOME_DIR/config/genesis.json" >"$HOME_DIR/genesis.tmp" && mv "$HOME_DIR/genesis.tmp" "$HOME_DIR/config/genesis.json"
  say "genesis edits for rollytics: operator_address $valoper$([[ "$FLAVOR" == minievm ]] && echo ", EVM fee denom $DENOM")"
fi

# 5c. GENESIS_HOOK (optional): a script run as `bash "$GENESIS_HOOK" <home> <minitiad>` after the genesis steps
#     above and before the node starts, for devnets that need more genesis state (devnet/opinit/start.sh adds the
#     OPinit bridge executor's key there: it must be in genesis, as opchild params are admin-only afterwards).
if [[ -n "${GENESIS_HOOK:-}" ]]; then
  bash "$GENESIS_HOOK" "$HOME_DIR" "$BIN" >>"$HOME_DIR/init.log" 2>&1 \
    || { say "GENESIS_HOOK $GENESIS_HOOK failed; last lines of $HOME_DIR/init.log:"; tail -n 20 "$HOME_DIR/init.log" >&2; exit 1; }
fi

fi # RESUME

# 6. Consensus: short block time, and empty blocks so the head keeps moving
#    (the /status catch-up check needs new blocks without traffic). No pprof
#    listener: 6060 may be taken on a shared machine.
CFG="$HOME_DIR/config/config.toml"
sed -i -E "s/^timeout_commit = .*/timeout_commit = \"$TIMEOUT_COMMIT\"/" "$CFG"
# minitia's CometBFT paces blocks by block_interval (default 100ms); BLOCK_INTERVAL overrides it (the IBC
# devnets use 1s, like the recorded real transfer, so a relayer on a busy machine keeps up).
if [[ -n "${BLOCK_INTERVAL:-}" ]]; then sed -i -E "s/^block_interval = .*/block_interval = \"$BLOCK_INTERVAL\"/" "$CFG"; fi
sed -i -E "s/^create_empty_blocks = .*/create_empty_blocks = ${EMPTY_BLOCKS:-true}/" "$CFG"
# without empty blocks, no periodic empty block either (create_empty_blocks_interval must be > 0 here: 24 h)
[[ "${EMPTY_BLOCKS:-true}" == false ]] && sed -i -E 's/^create_empty_blocks_interval = .*/create_empty_blocks_interval = "24h0m0s"/' "$CFG"
sed -i -E 's/^pprof_laddr = .*/pprof_laddr = ""/' "$CFG"
sed -i -E 's/^indexer = .*/indexer = "kv"/' "$CFG"   # tx_search and REST tx-by-hash need it

# 7. Start with every listener on loopback: CometBFT RPC, Cosmos REST, gRPC
#    (REST's gateway uses it), EVM JSON-RPC (+WS) on minievm.
EVM_FLAGS=()
if [[ "$FLAVOR" == minievm ]]; then
  EVM_FLAGS=(--json-rpc.enable=true --json-rpc.address "127.0.0.1:${JSONRPC_PORT}"
    --json-rpc.enable-ws=true --json-rpc.address-ws "127.0.0.1:${JSONRPC_WS_PORT}")
fi
nohup "$BIN" start --home "$HOME_DIR" \
  --minimum-gas-prices "0${DENOM}" \
  --rpc.laddr "tcp://127.0.0.1:${RPC_PORT}" \
  --p2p.laddr "tcp://127.0.0.1:${P2P_PORT}" \
  --api.enable=true --api.address "tcp://127.0.0.1:${REST_PORT}" \
  --grpc.enable=true --grpc.address "127.0.0.1:${GRPC_PORT}" \
  "${EVM_FLAGS[@]}" \
  >"$HOME_DIR/node.log" 2>&1 &
echo $! >"$HOME_DIR/minitiad.pid"

# 8. Ready when CometBFT has committed height >= 2 (1 without empty blocks) and REST (+ JSON-RPC) answer.
READY_HEIGHT=2; [[ "${EMPTY_BLOCKS:-true}" == false ]] && READY_HEIGHT=1
deadline=$((SECONDS + ${START_TIMEOUT_S:-90}))
until h="$(curl -sf "http://127.0.0.1:${RPC_PORT}/status" | jq -r '.result.sync_info.latest_block_height' 2>/dev/null)" \
  && [[ "${h:-0}" -ge "$READY_HEIGHT" ]] \
  && curl -sf "http://127.0.0.1:${REST_PORT}/cosmos/base/tendermint/v1beta1/node_info" >/dev/null \
  && { [[ "$FLAVOR" != minievm ]] || curl -sf -X POST -H 'content-type: application/json' \
       --data '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' "http://127.0.0.1:${JSONRPC_PORT}" >/dev/null; }; do
  if ! kill -0 "$(cat "$HOME_DIR/minitiad.pid")" 2>/dev/null; then
    say "minitiad exited during start-up; last log lines:"; tail -n 30 "$HOME_DIR/node.log" >&2; exit 1
  fi
  if ((SECONDS > deadline)); then
    say "not ready after ${START_TIMEOUT_S:-90}s; last log lines:"; tail -n 30 "$HOME_DIR/node.log" >&2
    bash "$HERE/stop.sh" "$HOME_DIR" || true
    exit 1
  fi
  sleep 0.5
done
say "ready at height $h (pid $(cat "$HOME_DIR/minitiad.pid"))"
cat <<EOF
CHAIN_ID=$CHAIN_ID
COMETBFT_RPC_URL=http://127.0.0.1:${RPC_PORT}
COSMOS_REST_URL=http://127.0.0.1:${REST_PORT}
EOF
[[ "$FLAVOR" != minievm ]] || echo "EVM_JSONRPC_URL=http://127.0.0.1:${JSONRPC_PORT}"
