// Asset lookups and the Skip AssetJson shape.
import { fullPath } from './denom.js';
import { traceOf } from './graph.js';
import type { AssetInfo, Registry } from './registry.js';

export function findAsset(reg: Registry, chainId: string, denom: string): AssetInfo | undefined {
  return reg.assets.get(chainId)?.get(denom);
}

/** Is this denom something the chain is known to hold (registry asset, derivable voucher, OP denom, OFT)? */
export function knownDenom(reg: Registry, chainId: string, denom: string): boolean {
  if (findAsset(reg, chainId, denom) || reg.seen.get(chainId)?.has(denom)) return true;
  if (denom.startsWith('ibc/')) return traceOf(reg, chainId, denom) !== undefined;
  if (reg.opL2ToL1.get(chainId)?.has(denom)) return true;
  if (reg.layerZero.some((d) => d.chain_id === chainId && d.denom === denom)) return true;
  // An L1 denom one of the rollups bridges over OPinit.
  if (chainId === reg.l1ChainId) for (const c of reg.chains.values()) if (c.opDenoms.includes(denom)) return true;
  return false;
}

/** Decimals of a denom: registry asset, else the asset it was bridged from, else the LayerZero entry, else 6. */
export function decimalsOf(reg: Registry, chainId: string, denom: string): number {
  const a = findAsset(reg, chainId, denom);
  if (a) return a.decimals;
  const l1 = reg.opL2ToL1.get(chainId)?.get(denom);
  if (l1 !== undefined) return decimalsOf(reg, reg.l1ChainId, l1);
  const lz = reg.layerZero.find((d) => d.chain_id === chainId && d.denom === denom);
  if (lz) return lz.local_decimals;
  // An origin denom on a chain outside the registry: take the decimals of an asset bridged from it, not of a
  // decimal wrapper over one (an ERC20 of 18 decimals over the 6 of noble's uusdc on a minievm rollup).
  for (const m of reg.assets.values())
    for (const x of m.values())
      if (x.originChainId === chainId && x.originDenom === denom && !x.wrapper) return x.decimals;
  return 6;
}

export function assetJson(reg: Registry, chainId: string, denom: string): Record<string, unknown> {
  const a = findAsset(reg, chainId, denom);
  const chain = reg.chains.get(chainId);
  const t = traceOf(reg, chainId, denom);
  const isEvm = chain?.vm === 'external-evm' || denom.startsWith('evm/');
  const out: Record<string, unknown> = {
    denom,
    chain_id: chainId,
    origin_denom: a?.originDenom ?? t?.base ?? denom,
    origin_chain_id: a?.originChainId ?? chainId,
    trace: t?.hops.length ? fullPath(t).slice(0, -(t.base.length + 1)) : '',
    is_cw20: false,
    is_evm: isEvm,
    is_svm: false,
    decimals: a?.decimals ?? decimalsOf(reg, chainId, denom),
  };
  const lz = reg.layerZero.find((d) => d.chain_id === chainId && d.denom === denom);
  const symbol = a?.symbol ?? lz?.symbol;
  if (symbol) {
    out.symbol = symbol;
    out.recommended_symbol = symbol;
    out.name = a?.name ?? symbol;
  }
  if (a?.logo) out.logo_uri = a.logo;
  if (a?.coingeckoId) out.coingecko_id = a.coingeckoId;
  if (a?.description) out.description = a.description;
  if (isEvm && denom.startsWith('evm/')) out.token_contract = `0x${denom.slice(4)}`;
  return out;
}

/** The gas asset of a chain: the first registry fee token, or the EVM native coin of an external chain. */
export function gasAsset(reg: Registry, chainId: string): Record<string, unknown> {
  const chain = reg.chains.get(chainId);
  const lzNative = reg.layerZero.find((d) => d.chain_id === chainId && d.kind === 'native');
  if (chain?.vm === 'external-evm')
    return {
      denom: lzNative?.denom ?? `${chainId}-native`,
      chain_id: chainId,
      origin_denom: lzNative?.denom ?? `${chainId}-native`,
      origin_chain_id: chainId,
      trace: '',
      is_cw20: false,
      is_evm: true,
      is_svm: false,
      symbol: 'ETH',
      decimals: 18,
    };
  return assetJson(reg, chainId, chain?.feeDenom ?? 'uinit');
}
