// Reading recorded CometBFT answers in tests that hold our simulation or our hop machines against real chains
// (test/tracking/recorded-devnet.test.ts, recorded-opinit.test.ts).
import type { AbciEvent } from '../../chain/events.js';
import type { Resolver } from '../../workflows/evidence.js';
import type { ChainTx } from '../../workflows/model.js';

/** One `tx_search` / `tx` result entry. */
export type CometTx = { hash: string; height: string; tx_result: { code: number; events: AbciEvent[] } };

/** A recorded entry as the activities read it (activities/rpc.ts), with a fixed block time. */
export const asTx = (chainId: string, t: CometTx, time = '2026-11-22T00:00:00Z'): ChainTx => ({
  chainId,
  hash: t.hash,
  height: Number(t.height),
  time,
  code: t.tx_result.code,
  events: t.tx_result.events,
});

/** Key paths of a JSON value (arrays collapsed to their first element, null a leaf): the shape two answers share. */
export function shape(v: unknown, at = ''): string[] {
  if (Array.isArray(v)) return v.length ? shape(v[0], `${at}[]`) : [`${at}[]`];
  if (v && typeof v === 'object')
    return Object.entries(v as Record<string, unknown>).flatMap(([k, x]) => [`${at}.${k}`, ...shape(x, `${at}.${k}`)]);
  return [];
}

/** The attribute keys, in order, of every event of `type`. */
export const keysOf = (events: AbciEvent[], type: string) =>
  events.filter((e) => e.type === type).map((e) => e.attributes.map((a) => a.key));

/** The first `type` event's value of `key`. */
export const attr = (events: AbciEvent[], type: string, key: string) =>
  events.find((e) => e.type === type)?.attributes.find((a) => a.key === key)?.value;

/** A resolver for recorded txs: only what the caller names, explorer links empty. */
export function recordedResolver(o: Partial<Omit<Resolver, 'txRef'>>): Resolver {
  return {
    ibcCounterparty: () => undefined,
    l2ByBridgeId: () => undefined,
    l1Of: () => undefined,
    chainByLzEid: () => undefined,
    lzEidOf: () => undefined,
    ...o,
    txRef: (chainId, txHash, onChainAt) => ({ chainId, txHash, explorerLink: '', ...(onChainAt ? { onChainAt } : {}) }),
  };
}
