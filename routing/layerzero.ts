// LayerZero V2 OFT registry (config/layerzero/<network>.json), shared-decimals math and OFT calldata.
// The Initia registry carries no LayerZero data, so deployments live in our own documented file.
import { Interface, zeroPadValue, getAddress } from 'ethers';
import { z } from 'zod';
import { MAX_UINT64 } from './amount.js';

const addr = z.string().regex(/^0x[0-9a-fA-F]{40}$|^0x[0-9a-fA-F]{64}$/, 'must be a 0x address');

export const lzConfigSchema = z.object({
  network: z.string(),
  /** External (non-registry) chains reachable over LayerZero, e.g. Ethereum. */
  external_chains: z
    .array(
      z.object({
        chain_id: z.string().regex(/^[a-zA-Z0-9._-]{1,64}$/),
        pretty_name: z.string(),
        vm: z.literal('evm'),
        evm_chain_id: z.number().int().positive(),
        json_rpc: z.string().url().optional(),
      }),
    )
    .default([]),
  endpoints: z.record(z.number().int().positive().max(0xffffffff)),
  /** Per chain: the EVM JSON-RPC used for quoteSend (overrides the registry's json-rpc). */
  json_rpc: z.record(z.string().url()).default({}),
  assets: z.array(
    z.object({
      symbol: z.string().min(1),
      shared_decimals: z.number().int().min(0).max(18),
      deployments: z
        .array(
          z.object({
            chain_id: z.string(),
            denom: z.string().min(1),
            local_decimals: z.number().int().min(0).max(36),
            /** OFT (or adapter) contract; null when not published anywhere we could verify. */
            oft_address: addr.nullable(),
            /** oft: the token is the OFT; adapter: ERC20 approval to the adapter; native: value carries the amount. */
            kind: z.enum(['oft', 'adapter', 'native']),
            token_address: addr.optional(),
            verified: z.boolean(),
            source: z.string(),
          }),
        )
        .min(2),
    }),
  ),
});
export type LzConfig = z.infer<typeof lzConfigSchema>;
export type LzDeployment = LzConfig['assets'][number]['deployments'][number] & {
  symbol: string;
  sharedDecimals: number;
  endpointId: number;
};

/** A deployment's base units in one shared-decimal unit: 10^(local − shared decimals). */
export const sharedRate = (d: LzDeployment): bigint => 10n ** BigInt(Math.max(0, d.local_decimals - d.sharedDecimals));

/** The most one send moves from `src`, in its base units: the OFT carries the amount in shared decimals as a uint64. */
export const lzMaxAmountLD = (src: LzDeployment): bigint => MAX_UINT64 * sharedRate(src);

/**
 * Shared-decimals dust: the OFT moves amounts in shared decimals, so digits below them are dropped on the
 * source and the destination re-scales to its local decimals (both deployments of an asset share its shared
 * decimals). Integer math only.
 */
export function lzAmounts(
  amountIn: bigint,
  src: LzDeployment,
  dst: LzDeployment,
): { sentLD: bigint; receivedLD: bigint; dust: bigint } {
  const srcRate = sharedRate(src);
  const amountSD = amountIn / srcRate;
  const sentLD = amountSD * srcRate;
  return { sentLD, receivedLD: amountSD * sharedRate(dst), dust: amountIn - sentLD };
}

export const OFT_ABI = [
  'function send((uint32 dstEid, bytes32 to, uint256 amountLD, uint256 minAmountLD, bytes extraOptions, bytes composeMsg, bytes oftCmd) _sendParam, (uint256 nativeFee, uint256 lzTokenFee) _fee, address _refundAddress) payable returns ((bytes32 guid, uint64 nonce, (uint256 nativeFee, uint256 lzTokenFee) fee), (uint256 amountSentLD, uint256 amountReceivedLD))',
  'function quoteSend((uint32 dstEid, bytes32 to, uint256 amountLD, uint256 minAmountLD, bytes extraOptions, bytes composeMsg, bytes oftCmd) _sendParam, bool _payInLzToken) view returns ((uint256 nativeFee, uint256 lzTokenFee) msgFee)',
  'function quoteOFT((uint32 dstEid, bytes32 to, uint256 amountLD, uint256 minAmountLD, bytes extraOptions, bytes composeMsg, bytes oftCmd) _sendParam) view returns ((uint256 minAmountLD, uint256 maxAmountLD), (int256 feeAmountLD, string description)[], (uint256 amountSentLD, uint256 amountReceivedLD))',
];
export const oftInterface = new Interface(OFT_ABI);

export interface SendParam {
  dstEid: number;
  to: string; // bytes32 hex
  amountLD: bigint;
  minAmountLD: bigint;
  extraOptions: string;
  composeMsg: string;
  oftCmd: string;
}

/** Recipient as bytes32: EVM addresses and 20-byte Initia accounts are left-padded; 32-byte Move addresses pass. */
export function toBytes32(addressBytes: Uint8Array): string {
  if (addressBytes.length !== 20 && addressBytes.length !== 32) throw new Error('recipient must be 20 or 32 bytes');
  return zeroPadValue(addressBytes, 32);
}

export function encodeSend(p: SendParam, nativeFee: bigint, refund: string): string {
  return oftInterface.encodeFunctionData('send', [
    [p.dstEid, p.to, p.amountLD, p.minAmountLD, p.extraOptions, p.composeMsg, p.oftCmd],
    [nativeFee, 0n],
    getAddress(refund),
  ]);
}
