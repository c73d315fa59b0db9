// POST /op-hook: the L2 messages the user signs so an OPinit deposit lands in a decimal-wrapped ERC20.
// Shape reproduced from a real yominet-1 deposit hook (tx-decoder finalize-token-deposit fixture):
//   1. MsgCall on the bridged denom's ERC20: approve(wrapper, 2^256-1)
//   2. MsgCall on the wrapper: toLocal(receiver, l2 denom, decimals of the l2 denom)
import { Interface, MaxUint256, getAddress } from 'ethers';
import { invalidRequest } from './errors.js';
import { parseAddress } from './address.js';
import { resolveRoute } from './route.js';
import type { Registry } from './registry.js';

export interface OpHookRequest {
  source_address: string;
  source_asset_chain_id: string;
  source_asset_denom: string;
  dest_address: string;
  dest_asset_chain_id: string;
  dest_asset_denom: string;
}

export const MSG_CALL = '/minievm.evm.v1.MsgCall';
const erc20 = new Interface(['function approve(address spender, uint256 amount) returns (bool)']);
const decimalWrapper = new Interface(['function toLocal(address receiver, string denom, uint8 decimals)']);

export function opHookHandler(
  reg: Registry,
  req: OpHookRequest,
): { chain_id: string; hook: { msg_type_url: string; msg: string }[] } {
  // The hook does not depend on the amount: any amount that survives dust removal finds the route.
  const routes = resolveRoute(reg, {
    amount_in: '1000000000000000000',
    source_asset_chain_id: req.source_asset_chain_id,
    source_asset_denom: req.source_asset_denom,
    dest_asset_chain_id: req.dest_asset_chain_id,
    dest_asset_denom: req.dest_asset_denom,
  });
  const hook = routes[0]!.hook;
  if (!hook)
    throw invalidRequest(
      `route from ${req.source_asset_denom} on ${req.source_asset_chain_id} to ${req.dest_asset_denom} on ${req.dest_asset_chain_id} needs no op-hook`,
    );
  parseAddress(reg.chains.get(req.source_asset_chain_id)!, req.source_address, 'source_address');
  const dest = parseAddress(reg.chains.get(hook.chainId)!, req.dest_address, 'dest_address');
  if (dest.bytes.length !== 20)
    throw invalidRequest('invalid dest_address: the op-hook signer must be a 20-byte account');
  const token = reg.erc20.get(hook.chainId)?.get(hook.underlying);
  if (!token)
    throw invalidRequest(
      `op-hook unavailable: the ERC20 contract of ${hook.underlying} on ${hook.chainId} is not in the registry`,
    );
  const call = (contract: string, input: string) => ({
    msg_type_url: MSG_CALL,
    msg: JSON.stringify({
      sender: dest.native,
      contract_addr: getAddress(contract),
      input,
      value: '0',
      access_list: [],
      auth_list: [],
    }),
  });
  return {
    chain_id: hook.chainId,
    hook: [
      call(token, erc20.encodeFunctionData('approve', [getAddress(hook.wrapper), MaxUint256])),
      call(
        hook.wrapper,
        decimalWrapper.encodeFunctionData('toLocal', [getAddress(dest.hex), hook.underlying, hook.underlyingDecimals]),
      ),
    ],
  };
}
