// The tracking service the router's HTTP routes call (api/router/tracking/service.ts declares the interface;
// this object satisfies it structurally, so tracking/ imports nothing from api/).
import { explorerLink, type ChainDirectory } from '../activities/chains.js';
import type { TrackingProjection } from '../activities/projection.js';
import type { RegistrationStarter } from './starter.js';

export function createTrackingService(
  chains: ChainDirectory,
  projection: TrackingProjection,
  starter: RegistrationStarter,
) {
  return {
    chain(chainId: string) {
      const c = chains.chain(chainId);
      if (!c) return undefined;
      return { hasEvm: Boolean(c.evmRpcUrl), explorerLink: (txHash: string) => explorerLink(c, txHash) };
    },
    async register(chainId: string, txHash: string, atMs: number) {
      const { doc } = await projection.register(chainId, txHash, atMs);
      return { state: doc.state, error: doc.error ?? null };
    },
    startWorkflow(chainId: string, txHash: string, registeredAtMs: number): void {
      starter.enqueue(chainId, txHash, registeredAtMs);
    },
    async latestStatusJson(chainId: string, txHash: string): Promise<string | null> {
      return (await projection.latest(chainId, txHash))?.json ?? null;
    },
    cachedStatusJson(chainId: string, txHash: string): string | undefined {
      return projection.peek(chainId, txHash)?.json;
    },
  };
}

export type TrackingServiceImpl = ReturnType<typeof createTrackingService>;
