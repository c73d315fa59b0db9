#!/usr/bin/env bash
# Starts two single-node minievm devnets (devnet-a, devnet-b) on free loopback
# ports below 32768 and links them with an ICS-20 transfer channel created by
# the Go relayer (rly, devnet/ibc/build-relayer.sh). The relayer is NOT left
# running: start it with relayer.sh start (tests hold it back on purpose).
#   usage: devnet/ibc/start.sh <run-dir>
# On success prints env lines on stdout:
#   A_CHAIN_ID, A_RPC, A_REST, A_JSONRPC, A_HOME (and B_*), CHANNEL_A, CHANNEL_B,
#   RLY_BIN, RLY_HOME, RLY_PATH, RELAYER_ADDRESS
# Everything lives in <run-dir>; stop.sh <run-dir> stops every process by pid.
#
# Relayer key: rly signs with a plain secp256k1 key (coin type 118). minievm's
# ante handler verifies both secp256k1 and ethsecp256k1 signatures
# (app/ante/sigverify.go), and rly has no codec for minievm's
# /initia.crypto.v1beta1.ethsecp256k1.PubKey, so the relayer gets its own
# secp256k1 account, funded here by a bank send from the genesis operator.
set -euo pipefail
RUN="${1:?usage: start.sh <run-dir>}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
say() { echo "[ibc-devnet] $*" >&2; }
mkdir -p "$RUN"; RUN="$(cd "$RUN" && pwd)"

BIN="$(bash "$HERE/../minievm/build.sh")" || { say "FAILED: minitiad could not be built (see [minievm-build] lines)"; exit 2; }
RLY="$(bash "$HERE/build-relayer.sh")" || { say "FAILED: the Go relayer could not be built (see [relayer-build] lines)"; exit 2; }

# A port base whose 7 ports (base+17/45/46/56/57/58/90) are all free; bases are
# spread over 20000-32000 (below the 32768+ ephemeral range) from a random start.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pick_base() {
  local skip="${1:-0}" b
  for _ in $(seq 1 200); do
    b=$(( 20000 + (RANDOM % 120) * 100 ))
    [[ "$b" == "$skip" ]] && continue
    local ok=1
    for o in 17 45 46 56 57 58 90; do port_free $((b + o)) || { ok=0; break; }; done
    [[ $ok == 1 ]] && { echo "$b"; return 0; }
  done
  say "no free port base found in 20000-32000"; return 1
}
# Any failing step stops what was started and shows the relayer's setup log (no half-started pair left behind).
on_err() {
  local code=$? line=$1
  say "FAILED at start.sh line $line (exit $code)"
  [[ -s "$RUN/rly-setup.log" ]] && { say "----- $RUN/rly-setup.log -----"; tail -n 20 "$RUN/rly-setup.log" >&2; }
  bash "$HERE/stop.sh" "$RUN" >&2 || true
  exit "$code"
}
trap 'on_err $LINENO' ERR
BASE_A="${IBC_PORT_BASE_A:-$(pick_base)}"
BASE_B="${IBC_PORT_BASE_B:-$(pick_base "$BASE_A")}"

start_chain() { # id base
  local id="$1" base="$2"
  CHAIN_ID="$id" PORT_BASE="$base" BLOCK_INTERVAL="${IBC_BLOCK_INTERVAL:-1s}" DEVNET_ACCOUNTS="${DEVNET_ACCOUNTS:-20}" \
    bash "$HERE/../minievm/start.sh" "$RUN/$id" >"$RUN/$id.env"
}
start_chain devnet-a "$BASE_A" &
pa=$!
start_chain devnet-b "$BASE_B" &
pb=$!
wait "$pa" || { say "devnet-a failed to start"; bash "$HERE/stop.sh" "$RUN"; exit 1; }
wait "$pb" || { say "devnet-b failed to start"; bash "$HERE/stop.sh" "$RUN"; exit 1; }
val() { grep "^$2=" "$RUN/$1.env" | cut -d= -f2-; }
A_RPC="$(val devnet-a COMETBFT_RPC_URL)"; B_RPC="$(val devnet-b COMETBFT_RPC_URL)"

# Relayer home, chains, key.
RH="$RUN/rly"
rm -rf "$RH"
"$RLY" config init --home "$RH" >/dev/null
for id in devnet-a devnet-b; do
  rpc="$(val "$id" COMETBFT_RPC_URL)"
  cat >"$RUN/rly-$id.json" <<JSON
{"type":"cosmos","value":{"key":"relayer","chain-id":"$id","rpc-addr":"$rpc","account-prefix":"init",
"keyring-backend":"test","gas-adjustment":1.5,"gas-prices":"0umin","min-gas-amount":0,"max-gas-amount":0,
"debug":false,"timeout":"20s","block-timeout":"","output-format":"json","sign-mode":"direct",
"extra-codecs":[],"coin-type":118,"signing-algorithm":"","broadcast-mode":"batch","min-loop-duration":0,
"extension-options":[],"feegrants":null}}
JSON
  "$RLY" chains add --home "$RH" --file "$RUN/rly-$id.json" "$id" >/dev/null 2>>"$RUN/rly-setup.log"
done
"$RLY" keys add devnet-a relayer --coin-type 118 --home "$RH" >"$RUN/rly-key.json" 2>>"$RUN/rly-setup.log"
MNEMONIC="$(jq -r .mnemonic "$RUN/rly-key.json")"
RELAYER_ADDRESS="$(jq -r .address "$RUN/rly-key.json")"
"$RLY" keys restore devnet-b relayer "$MNEMONIC" --coin-type 118 --home "$RH" >/dev/null 2>>"$RUN/rly-setup.log"

# Fund the relayer on both chains from the genesis operator (account 0).
for id in devnet-a devnet-b; do
  rpc="$(val "$id" COMETBFT_RPC_URL)"
  "$BIN" tx bank send operator "$RELAYER_ADDRESS" 1000000000000umin --keyring-backend test --home "$RUN/$id" \
    --chain-id "$id" --node "${rpc/http:/tcp:}" --fees 0umin --gas 200000 -y --output json >"$RUN/fund-$id.json" 2>&1 \
    || { say "funding the relayer on $id failed: $(cat "$RUN/fund-$id.json")"; bash "$HERE/stop.sh" "$RUN"; exit 1; }
done
for id in devnet-a devnet-b; do
  for _ in $(seq 1 40); do
    bal="$("$RLY" query balance "$id" --home "$RH" 2>/dev/null || true)"
    [[ "$bal" == *umin* ]] && break
    sleep 0.5
  done
  [[ "$bal" == *umin* ]] || { say "relayer balance on $id never arrived: $bal"; bash "$HERE/stop.sh" "$RUN"; exit 1; }
done

# Clients, connection, transfer channel.
"$RLY" paths new devnet-a devnet-b ab --home "$RH" >/dev/null 2>>"$RUN/rly-setup.log"
t0=$SECONDS
if ! "$RLY" tx link ab --src-port transfer --dst-port transfer --order unordered --version ics20-1 \
  --client-tp 48h --home "$RH" >"$RUN/rly-link.log" 2>&1; then
  say "rly tx link failed; last lines:"; tail -n 30 "$RUN/rly-link.log" >&2
  bash "$HERE/stop.sh" "$RUN"; exit 1
fi
say "channel created in $((SECONDS - t0)) s"
"$RLY" query channels devnet-a --home "$RH" >"$RUN/channels-a.json" 2>/dev/null
"$RLY" query channels devnet-b --home "$RH" >"$RUN/channels-b.json" 2>/dev/null
CHANNEL_A="$(jq -rs '[.[] | select(.port_id=="transfer" and .state=="STATE_OPEN")][0].channel_id' "$RUN/channels-a.json")"
CHANNEL_B="$(jq -rs '[.[] | select(.port_id=="transfer" and .state=="STATE_OPEN")][0].channel_id' "$RUN/channels-b.json")"
[[ "$CHANNEL_A" == channel-* && "$CHANNEL_B" == channel-* ]] || { say "no open transfer channel after link"; bash "$HERE/stop.sh" "$RUN"; exit 1; }

cat >"$RUN/ibc.env" <<ENV
A_CHAIN_ID=devnet-a
A_RPC=$A_RPC
A_REST=$(val devnet-a COSMOS_REST_URL)
A_JSONRPC=$(val devnet-a EVM_JSONRPC_URL)
A_HOME=$RUN/devnet-a
B_CHAIN_ID=devnet-b
B_RPC=$B_RPC
B_REST=$(val devnet-b COSMOS_REST_URL)
B_JSONRPC=$(val devnet-b EVM_JSONRPC_URL)
B_HOME=$RUN/devnet-b
CHANNEL_A=$CHANNEL_A
CHANNEL_B=$CHANNEL_B
RLY_BIN=$RLY
RLY_HOME=$RH
RLY_PATH=ab
RELAYER_ADDRESS=$RELAYER_ADDRESS
MINITIAD=$BIN
ENV
cat "$RUN/ibc.env"
