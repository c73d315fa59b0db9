// GET /v2/info/chains and GET /v2/fungible/assets: the Skip ChainJson / AssetJson lists InterwovenKit reads,
// plus Initia's additions (rpc, rest, hidden, evm_fee_asset). Built once per registry: the data is static.
import { assetJson } from './assets.js';
import type { RegistryChain, Registry } from './registry.js';

type Json = Record<string, unknown>;

/** Chains a client can address: registry chains and LayerZero EVM chains (not trace-only Cosmos chains). */
const listed = (c: RegistryChain) => c.vm !== 'external-cosmos';

function chainJson(reg: Registry, c: RegistryChain): Json {
  const evm = c.vm === 'external-evm';
  const price = (x?: number) => (x === undefined ? undefined : String(x));
  const out: Json = {
    chain_name: c.chainName,
    chain_id: c.chainId,
    pretty_name: c.prettyName,
    pfm_enabled: c.pfm,
    supports_memo: !evm,
    cosmos_module_support: { authz: !evm, feegrant: !evm },
    bech32_prefix: c.bech32Prefix ?? '',
    fee_assets: c.feeTokens.map((t) => ({
      denom: t.denom,
      gas_price: { low: price(t.low), average: price(t.average), high: price(t.high) },
    })),
    chain_type: evm ? 'evm' : 'cosmos',
    ibc_capabilities: { cosmos_pfm: c.pfm, cosmos_ibc_hooks: false, cosmos_memo: !evm, cosmos_autopilot: false },
    is_testnet: reg.network === 'testnet',
    hidden: c.removed,
  };
  if (c.logo) out.logo_uri = c.logo;
  if (c.rpc) out.rpc = c.rpc;
  if (c.rest) out.rest = c.rest;
  if (c.vm === 'minievm' && c.feeDenom) {
    const a = reg.assets.get(c.chainId)?.get(c.feeDenom);
    out.evm_fee_asset = { name: a?.name ?? 'INIT', symbol: a?.symbol ?? 'INIT', decimals: 18 };
  }
  return out;
}

const cache = new WeakMap<Registry, { chains: Json[]; assets: Map<string, Json[]> }>();
function built(reg: Registry) {
  let b = cache.get(reg);
  if (b) return b;
  const chains = [...reg.chains.values()].filter(listed).map((c) => chainJson(reg, c));
  const assets = new Map<string, Json[]>();
  for (const c of reg.chains.values()) {
    if (!listed(c)) continue;
    const list = [...(reg.assets.get(c.chainId)?.keys() ?? [])].map((d) => ({
      ...assetJson(reg, c.chainId, d),
      hidden: c.removed,
    }));
    for (const d of reg.layerZero)
      if (d.chain_id === c.chainId && !reg.assets.get(c.chainId)?.has(d.denom))
        list.push({ ...assetJson(reg, c.chainId, d.denom), hidden: c.removed });
    assets.set(c.chainId, list);
  }
  b = { chains, assets };
  cache.set(reg, b);
  return b;
}

/** chain_ids as Skip sends it (repeated) or as InterwovenKit may (comma-separated). */
const asList = (v: unknown): string[] | undefined =>
  v === undefined ? undefined : (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(',')).filter(Boolean);

export function chainsHandler(reg: Registry, query: Record<string, unknown>): Json {
  const ids = asList(query.chain_ids);
  const includeEvm = query.include_evm === true || query.include_evm === 'true';
  const chains = built(reg).chains.filter(
    (c) => (!ids || ids.includes(c.chain_id as string)) && (includeEvm || ids || c.chain_type !== 'evm'),
  );
  return { chains };
}

export function assetsHandler(reg: Registry, query: Record<string, unknown>): Json {
  const ids = asList(query.chain_ids);
  const map: Record<string, { assets: Json[] }> = {};
  for (const [chainId, assets] of built(reg).assets) if (!ids || ids.includes(chainId)) map[chainId] = { assets };
  return { chain_to_assets_map: map };
}
