// Chain directory for tracking built from the router's registry (routing/registry.ts). The registry has
// no CometBFT RPC address, so RPC URLs come from `rpcUrls` (config) or the chain's REST host is assumed
// to expose none: such chains can still be tracked through EVM JSON-RPC only.
import { readFileSync } from 'node:fs';
import type { Registry } from '../routing/registry.js';
import { ConfigError, configSection } from '../platform/config.js';
import { staticDirectory, type ChainDirectory, type ChainInfo } from '../activities/chains.js';

export function directoryFromRegistry(
  reg: Registry,
  rpcUrls: Record<string, string> = {},
  executorUrls: Record<string, string> = {},
): ChainDirectory {
  const byId = [...reg.chains.values()];
  const channelIndex = new Map<string, Record<string, { chainId: string; channelId: string }>>();
  for (const c of byId) {
    const own: Record<string, { chainId: string; channelId: string }> = {};
    for (const [cp, ch] of c.channels) own[ch.channel] = { chainId: cp, channelId: ch.counterpartyChannel };
    channelIndex.set(c.chainId, own);
  }
  const lzEid = new Map<string, number>();
  for (const d of reg.layerZero) lzEid.set(d.chain_id, d.endpointId);
  const infos: ChainInfo[] = byId.map((c) => {
    // TRACKING_EXECUTOR_URLS overrides the registry's executor_uri (e.g. a private executor).
    const executorUrl = executorUrls[c.chainId] ?? c.executorUri;
    return {
      chainId: c.chainId,
      ...(rpcUrls[c.chainId] ? { rpcUrl: rpcUrls[c.chainId] } : {}),
      ...(c.rest ? { restUrl: c.rest } : {}),
      ...(c.jsonRpc ? { evmRpcUrl: c.jsonRpc } : {}),
      ...(c.bech32Prefix ? { bech32Prefix: c.bech32Prefix } : {}),
      ...(c.txPage ? { explorerTxPage: c.txPage } : {}),
      ibcChannels: channelIndex.get(c.chainId) ?? {},
      ...(c.opBridgeId !== undefined && !c.isL1
        ? { opBridgeId: c.opBridgeId.toString(), l1ChainId: reg.l1ChainId }
        : {}),
      ...(executorUrl ? { executorUrl } : {}),
      ...(lzEid.has(c.chainId) ? { lzEid: lzEid.get(c.chainId)! } : {}),
    };
  });
  return staticDirectory(infos);
}

/**
 * The chain directory of a tracking process, from the environment: TRACKING_CHAINS_FILE (JSON array of
 * ChainInfo), else the router registry plus TRACKING_RPC_URLS / TRACKING_EXECUTOR_URLS (JSON objects chain id →
 * URL; the registry has neither). Throws a one-line config error on malformed values.
 */
export function directoryFromEnv(reg: Registry, env?: Record<string, string | undefined>): ChainDirectory {
  const c = configSection(['TRACKING_CHAINS_FILE', 'TRACKING_RPC_URLS', 'TRACKING_EXECUTOR_URLS'], env);
  if (c.TRACKING_CHAINS_FILE) {
    try {
      return staticDirectory(JSON.parse(readFileSync(c.TRACKING_CHAINS_FILE, 'utf8')) as ChainInfo[]);
    } catch (e) {
      throw new ConfigError(`config: TRACKING_CHAINS_FILE ${(e as Error).message}`);
    }
  }
  const urls = (name: 'TRACKING_RPC_URLS' | 'TRACKING_EXECUTOR_URLS'): Record<string, string> => {
    try {
      const v = JSON.parse(c[name] ?? '{}') as unknown;
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not an object');
      return v as Record<string, string>;
    } catch {
      throw new ConfigError(`config: ${name} must be a JSON object of chain id → URL`);
    }
  };
  return directoryFromRegistry(reg, urls('TRACKING_RPC_URLS'), urls('TRACKING_EXECUTOR_URLS'));
}
