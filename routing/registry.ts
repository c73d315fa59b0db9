// Router registry: chains, assets, IBC channel pairs, OPinit bridges and LayerZero deployments, loaded from
// the Initia registry files (config/registry/) plus our LayerZero file, validated once at start-up.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ZodError } from 'zod';
import { l2Denom, parseFullPath, traceToDenom, type DenomTrace } from './denom.js';
import { deriveReachableTraces } from './graph.js';
import { lzConfigSchema, type LzConfig, type LzDeployment } from './layerzero.js';
import {
  assetListSchema,
  bundleSchema,
  chainFileSchema,
  erc20Schema,
  externalPrefixesSchema,
  type AssetFile,
  type ChainFile,
} from './registry-schema.js';

export type RegistryVm = 'l1-move' | 'minimove' | 'minievm' | 'miniwasm' | 'external-cosmos' | 'external-evm';

export interface RegistryChain {
  chainId: string;
  chainName: string;
  prettyName: string;
  vm: RegistryVm;
  isL1: boolean;
  /** In the registry's removed-mainnets folder: still reachable over L1 channels, routed with a warning. */
  removed: boolean;
  bech32Prefix?: string;
  evmChainId?: number;
  opBridgeId?: bigint;
  /** L1 denoms this rollup's OPinit bridge carries (registry metadata.op_denoms). */
  opDenoms: string[];
  /** The rollup's OPinit executor API (registry metadata.executor_uri): withdrawal proofs for claims. */
  executorUri?: string;
  /** counterparty chain id → our transfer channel and theirs. */
  channels: Map<string, { channel: string; counterpartyChannel: string }>;
  /** Packet-forward middleware: may this chain forward a packet on to another hop within one tx? */
  pfm: boolean;
  finalizationPeriodSeconds: number;
  feeDenom?: string;
  /** Registry fee tokens with their gas prices (chain.json fees.fee_tokens). */
  feeTokens: { denom: string; low?: number; average?: number; high?: number }[];
  rpc?: string;
  rest?: string;
  jsonRpc?: string;
  txPage?: string;
  logo?: string;
}

export interface AssetInfo {
  chainId: string;
  denom: string;
  symbol: string;
  name: string;
  decimals: number;
  description?: string;
  coingeckoId?: string;
  logo?: string;
  originChainId: string;
  originDenom: string;
  /** The denom the registry's traces derive (null when the denom is a contract, e.g. a wrapped ERC20). */
  derived: string | null;
  /** Decimal wrapper over another denom on the same chain (minievm): reached by an op-hook after a deposit. */
  wrapper?: { contract: string; underlying: string };
  raw: AssetFile;
}

export interface Registry {
  network: string;
  l1ChainId: string;
  chains: Map<string, RegistryChain>;
  assets: Map<string, Map<string, AssetInfo>>;
  /** Known IBC traces of ibc/ denoms per chain (from registry traces, extended as routes derive new ones). */
  traces: Map<string, Map<string, DenomTrace>>;
  /** rollup chain id → l2 denom → L1 denom, for every op_denom. */
  opL2ToL1: Map<string, Map<string, string>>;
  layerZero: LzDeployment[];
  /** Denoms the registry's traces show a chain holding (notably on external chains such as noble-1). */
  seen: Map<string, Set<string>>;
  /** ERC20 contract of a cosmos denom on minievm chains, where known (used by op-hooks). */
  erc20: Map<string, Map<string, string>>;
}

export class RegistryError extends Error {
  override name = 'RegistryError';
}

export const DEFAULT_FINALIZATION_SECONDS = 7 * 24 * 3600;
const here = path.dirname(fileURLToPath(import.meta.url));
export const CONFIG_DIR = path.resolve(here, '..', 'config');

export interface RegistryFiles {
  chain: unknown;
  assetlist: unknown;
  origin: string;
  removed?: boolean;
}

/** Read every <dir>/<name>/{chain,assetlist}.json under the given folders. */
export function readRegistryDirs(dirs: { dir: string; removed?: boolean }[]): RegistryFiles[] {
  const out: RegistryFiles[] = [];
  for (const { dir, removed } of dirs) {
    if (!existsSync(dir)) throw new RegistryError(`registry: folder ${dir} does not exist`);
    for (const name of readdirSync(dir).sort()) {
      const chainPath = path.join(dir, name, 'chain.json');
      if (!statSync(path.join(dir, name)).isDirectory() || !existsSync(chainPath)) continue;
      const assetPath = path.join(dir, name, 'assetlist.json');
      out.push({
        chain: readJson(chainPath),
        assetlist: existsSync(assetPath) ? readJson(assetPath) : { chain_name: name, assets: [] },
        origin: path.join(dir, name),
        removed,
      });
    }
  }
  return out;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new RegistryError(`registry: ${file}: ${(e as Error).message}`);
  }
}

function zodLine(where: string, e: ZodError): RegistryError {
  const i = e.issues[0]!;
  return new RegistryError(`registry: ${where}: ${i.path.join('.') || '(root)'} ${i.message}`);
}

const ics20 = (version: string) => version === 'ics20-1' || /"app_version"\s*:\s*"ics20-1"/.test(version);

/** Build and validate a registry. Throws RegistryError with one line naming the file and field. */
export function buildRegistry(
  network: string,
  sources: RegistryFiles[],
  lzRaw?: unknown,
  erc20Raw?: unknown,
): Registry {
  const files: { chain: ChainFile; assets: AssetFile[]; removed: boolean; origin: string }[] = [];
  for (const s of sources) {
    const c = chainFileSchema.safeParse(s.chain);
    if (!c.success) throw zodLine(`${s.origin}/chain.json`, c.error);
    const a = assetListSchema.safeParse(s.assetlist);
    if (!a.success) throw zodLine(`${s.origin}/assetlist.json`, a.error);
    files.push({ chain: c.data, assets: a.data.assets, removed: !!s.removed, origin: s.origin });
  }
  const chains = new Map<string, RegistryChain>();
  for (const f of files) {
    const c = f.chain;
    if (chains.has(c.chain_id)) throw new RegistryError(`registry: ${f.origin}: duplicate chain_id ${c.chain_id}`);
    const md = c.metadata ?? {};
    const isL1 = md.is_l1 === true;
    const mtype = md.minitia?.type;
    const vm: RegistryVm = isL1
      ? 'l1-move'
      : mtype === 'minievm' || mtype === 'minimove' || mtype === 'miniwasm'
        ? mtype
        : 'external-cosmos';
    if (!isL1 && md.op_bridge_id === undefined && vm !== 'external-cosmos')
      throw new RegistryError(`registry: ${f.origin}/chain.json: metadata.op_bridge_id is required for rollups`);
    chains.set(c.chain_id, {
      chainId: c.chain_id,
      chainName: c.chain_name,
      prettyName: c.pretty_name ?? c.chain_name,
      vm,
      isL1,
      removed: f.removed || md.deprecated === true,
      bech32Prefix: c.bech32_prefix,
      evmChainId: c.evm_chain_id,
      opBridgeId: md.op_bridge_id !== undefined ? BigInt(md.op_bridge_id) : undefined,
      opDenoms: md.op_denoms ?? [],
      ...(md.executor_uri ? { executorUri: md.executor_uri } : {}),
      channels: new Map(),
      // Initia L1 runs packet-forward middleware; rollups are not assumed to (see docs/router.md).
      pfm: isL1,
      finalizationPeriodSeconds: md.op_finalization_period_seconds ?? DEFAULT_FINALIZATION_SECONDS,
      feeDenom: c.fees?.fee_tokens[0]?.denom,
      feeTokens: (c.fees?.fee_tokens ?? []).map((t) => {
        const n = (k: string) => (typeof t[k] === 'number' ? (t[k] as number) : undefined);
        return {
          denom: t.denom,
          low: n('low_gas_price') ?? n('fixed_min_gas_price'),
          average: n('average_gas_price') ?? n('fixed_min_gas_price'),
          high: n('high_gas_price') ?? n('fixed_min_gas_price'),
        };
      }),
      rpc: c.apis?.rpc?.[0]?.address,
      rest: c.apis?.rest?.[0]?.address,
      jsonRpc: c.apis?.['json-rpc']?.[0]?.address,
      txPage: c.explorers?.find((e) => e.tx_page)?.tx_page,
      logo: c.logo_URIs?.png ?? c.logo_URIs?.svg,
    });
  }
  const l1s = [...chains.values()].filter((c) => c.isL1);
  if (l1s.length !== 1)
    throw new RegistryError(`registry: expected exactly one L1 chain (metadata.is_l1), found ${l1s.length}`);
  const l1 = l1s[0]!;

  // IBC channel pairs. 1) from asset traces (they name both ends, and external chains);
  // 2) from chain.json ibc_channels where each side lists exactly one transfer channel to the other.
  const pairs = new Map<string, { a: string; ca: string; b: string; cb: string }>();
  const addPair = (a: string, ca: string, b: string, cb: string) => {
    if (a === b) return;
    for (const [x, cx, y, cy] of [
      [a, ca, b, cb],
      [b, cb, a, ca],
    ] as const) {
      if (!chains.has(x)) chains.set(x, externalChain(x));
      const ch = chains.get(x)!;
      if (!ch.channels.has(y)) ch.channels.set(y, { channel: cx, counterpartyChannel: cy });
    }
    pairs.set(`${a}|${b}`, { a, ca, b, cb });
  };
  const listed = new Map<string, Map<string, string[]>>();
  for (const f of files) {
    const m = new Map<string, string[]>();
    for (const ch of f.chain.metadata?.ibc_channels ?? []) {
      if (ch.port_id !== 'transfer' || !ics20(ch.version)) continue;
      m.set(ch.chain_id, [...(m.get(ch.chain_id) ?? []), ch.channel_id]);
    }
    listed.set(f.chain.chain_id, m);
  }
  for (const [a, m] of listed)
    for (const [b, cas] of m) {
      const cbs = listed.get(b)?.get(a);
      if (cas.length === 1 && cbs?.length === 1) addPair(a, cas[0]!, b, cbs[0]!);
    }

  const assets = new Map<string, Map<string, AssetInfo>>();
  const traces = new Map<string, Map<string, DenomTrace>>();
  const seen = new Map<string, Set<string>>();
  const see = (chainId: string, denom: string) => {
    if (!seen.has(chainId)) seen.set(chainId, new Set());
    seen.get(chainId)!.add(denom);
  };
  const noteTrace = (chainId: string, t: DenomTrace) => {
    if (t.hops.length === 0) return;
    let m = traces.get(chainId);
    if (!m) traces.set(chainId, (m = new Map()));
    m.set(traceToDenom(t), t);
  };
  for (const f of files) {
    const chainId = f.chain.chain_id;
    const m = new Map<string, AssetInfo>();
    for (const a of f.assets) {
      const ts = a.traces ?? [];
      // Channel pairs from ibc hops: hop i lands on the chain named by hop i+1's counterparty (or this chain).
      ts.forEach((t, i) => {
        if (t.type !== 'ibc' || !t.counterparty.channel_id) return;
        const next = ts[i + 1] as { counterparty?: { chain_id?: string } } | undefined;
        const receiver = next?.counterparty?.chain_id ?? chainId;
        if (
          !pairs.has(`${receiver}|${t.counterparty.chain_id}`) &&
          !pairs.has(`${t.counterparty.chain_id}|${receiver}`)
        )
          addPair(receiver, t.chain.channel_id, t.counterparty.chain_id, t.counterparty.channel_id);
        noteTrace(receiver, parseFullPath(t.chain.path));
        // The sending side held counterparty.base_denom: native on hop 0, the previous hop's voucher later.
        const prev = ts[i - 1];
        if (prev?.type === 'ibc') noteTrace(t.counterparty.chain_id, parseFullPath(prev.chain.path));
        see(t.counterparty.chain_id, t.counterparty.base_denom);
      });
      const first = ts[0];
      const last = ts[ts.length - 1];
      let derived: string | null = a.base;
      let wrapper: AssetInfo['wrapper'];
      if (last?.type === 'ibc') derived = traceToDenom(parseFullPath(last.chain.path));
      else if (last?.type === 'op') derived = l2Denom(BigInt(last.chain.bridge_id), last.counterparty.base_denom);
      else if (last?.type === 'wrapped') {
        derived = null;
        wrapper = { contract: last.chain.contract, underlying: last.counterparty.base_denom };
      }
      const origin = first && first.type !== 'ibc-cw20' ? first.counterparty : undefined;
      const decimals = Math.max(...a.denom_units.map((u) => u.exponent));
      m.set(a.base, {
        chainId,
        denom: a.base,
        symbol: a.symbol,
        name: a.name ?? a.symbol,
        decimals,
        description: a.description,
        coingeckoId: a.coingecko_id,
        logo: a.logo_URIs?.png ?? a.logo_URIs?.svg,
        originChainId: origin?.chain_id ?? chainId,
        originDenom: origin?.base_denom ?? a.base,
        derived,
        wrapper,
        raw: a,
      });
    }
    assets.set(chainId, m);
  }

  const opL2ToL1 = new Map<string, Map<string, string>>();
  for (const c of chains.values()) {
    if (c.opBridgeId === undefined) continue;
    const m = new Map<string, string>();
    for (const d of c.opDenoms) m.set(l2Denom(c.opBridgeId, d), d);
    opL2ToL1.set(c.chainId, m);
  }

  const layerZero = lzRaw === undefined ? [] : loadLayerZero(lzRaw, chains);
  const erc20 = new Map<string, Map<string, string>>();
  const rows = erc20Schema.safeParse(erc20Raw ?? []);
  if (!rows.success) throw zodLine('erc20 registry', rows.error);
  for (const row of rows.data) {
    if (!erc20.has(row.chain_id)) erc20.set(row.chain_id, new Map());
    erc20.get(row.chain_id)!.set(row.denom, row.address);
  }
  const registry: Registry = {
    network,
    l1ChainId: l1.chainId,
    chains,
    assets,
    traces,
    opL2ToL1,
    layerZero,
    seen,
    erc20,
  };
  deriveReachableTraces(registry);
  return registry;
}

/**
 * The bech32 prefixes of the Cosmos chains outside Initia that the registries reach by IBC (they have no chain.json
 * here): an address is checked against its chain's prefix, since another prefix makes that chain refuse the tx or
 * bounce the packet (config/registry/README.md says where they come from).
 */
const EXTERNAL_PREFIXES = (() => {
  const parsed = externalPrefixesSchema.safeParse(
    readJson(path.join(CONFIG_DIR, 'registry', 'external-bech32-prefixes.json')),
  );
  if (!parsed.success) throw zodLine('external bech32 prefixes', parsed.error);
  return parsed.data;
})();

function externalChain(chainId: string, vm: RegistryVm = 'external-cosmos'): RegistryChain {
  return {
    chainId,
    ...(vm === 'external-cosmos' && EXTERNAL_PREFIXES[chainId] ? { bech32Prefix: EXTERNAL_PREFIXES[chainId] } : {}),
    chainName: chainId,
    prettyName: chainId,
    vm,
    isL1: false,
    removed: false,
    opDenoms: [],
    feeTokens: [],
    channels: new Map(),
    pfm: false,
    finalizationPeriodSeconds: DEFAULT_FINALIZATION_SECONDS,
  };
}

function loadLayerZero(raw: unknown, chains: Map<string, RegistryChain>): LzDeployment[] {
  const parsed = lzConfigSchema.safeParse(raw);
  if (!parsed.success) throw zodLine('layerzero config', parsed.error);
  const cfg: LzConfig = parsed.data;
  for (const x of cfg.external_chains) {
    if (chains.has(x.chain_id)) continue;
    chains.set(x.chain_id, {
      ...externalChain(x.chain_id, 'external-evm'),
      prettyName: x.pretty_name,
      evmChainId: x.evm_chain_id,
      jsonRpc: x.json_rpc,
    });
  }
  for (const [chainId, url] of Object.entries(cfg.json_rpc)) {
    const c = chains.get(chainId);
    if (c) c.jsonRpc = url;
  }
  const out: LzDeployment[] = [];
  for (const a of cfg.assets)
    for (const d of a.deployments) {
      if (!chains.has(d.chain_id))
        throw new RegistryError(`registry: layerzero ${a.symbol}: unknown chain ${d.chain_id}`);
      const eid = cfg.endpoints[d.chain_id];
      if (eid === undefined)
        throw new RegistryError(`registry: layerzero ${a.symbol}: no endpoint id for chain ${d.chain_id}`);
      if (d.local_decimals < a.shared_decimals)
        throw new RegistryError(
          `registry: layerzero ${a.symbol}: local_decimals below shared_decimals on ${d.chain_id}`,
        );
      out.push({ ...d, symbol: a.symbol, sharedDecimals: a.shared_decimals, endpointId: eid });
    }
  return out;
}

export type RouterNetworkConfig = { ROUTER_NETWORK: 'mainnet' | 'testnet' | 'custom'; ROUTER_REGISTRY_FILE?: string };

function optionalJson(file: string): unknown {
  return existsSync(file) ? readJson(file) : undefined;
}

/**
 * The registry a deployment routes over: mainnet (current + removed mainnets), testnet, or a custom file
 * (a JSON bundle `{network, chains:[{chain, assetlist}], layerzero?}` or a folder laid out like config/registry/mainnets,
 * optionally with `layerzero.json` and `erc20.json` beside the chain folders).
 */
export function loadRouterRegistry(config: RouterNetworkConfig, configDir = CONFIG_DIR): Registry {
  const reg = path.join(configDir, 'registry');
  if (config.ROUTER_NETWORK === 'mainnet')
    return buildRegistry(
      'mainnet',
      readRegistryDirs([
        { dir: path.join(reg, 'mainnets') },
        { dir: path.join(reg, 'removed-mainnets'), removed: true },
      ]),
      optionalJson(path.join(configDir, 'layerzero', 'mainnet.json')),
      optionalJson(path.join(reg, 'erc20-mainnet.json')),
    );
  if (config.ROUTER_NETWORK === 'testnet')
    return buildRegistry(
      'testnet',
      readRegistryDirs([{ dir: path.join(reg, 'testnets') }]),
      optionalJson(path.join(configDir, 'layerzero', 'testnet.json')),
    );
  const file = config.ROUTER_REGISTRY_FILE;
  if (!file) throw new RegistryError('registry: ROUTER_REGISTRY_FILE is required when ROUTER_NETWORK=custom');
  if (!existsSync(file)) throw new RegistryError(`registry: ROUTER_REGISTRY_FILE ${file} does not exist`);
  if (statSync(file).isDirectory())
    return buildRegistry(
      'custom',
      readRegistryDirs([{ dir: file }]),
      optionalJson(path.join(file, 'layerzero.json')),
      optionalJson(path.join(file, 'erc20.json')),
    );
  const bundle = bundleSchema.safeParse(readJson(file));
  if (!bundle.success) throw zodLine(file, bundle.error);
  return buildRegistry(
    bundle.data.network,
    bundle.data.chains.map((c, i) => ({ chain: c.chain, assetlist: c.assetlist, origin: `${file}#chains[${i}]` })),
    bundle.data.layerzero,
  );
}
