// Status figures: indexed height (last complete checkpoint), EVM internal-tx height, rich-list height.
import type { Store } from '../client.js';

export interface StatusFacts {
  height: number | null;
  internalTxHeight: number;
  richListHeight: number;
  /** Any block with txs above the internal-tx height (§4: otherwise the latest height is reported). */
  txBlocksAboveInternal: number;
  latestChainId: string;
}

export interface StatusWants {
  internalTxs: boolean;
  richList: boolean;
  chainId: boolean;
}

// Each max is read as "ORDER BY key DESC LIMIT 1" so only the last granule of each table is touched, and
// only the figures this deployment reports are read at all.
function statusSql(w: StatusWants): string {
  const parts = [
    '(SELECT height FROM ingest_checkpoints ORDER BY height DESC LIMIT 1) AS height',
    '(SELECT count() FROM (SELECT 1 FROM ingest_checkpoints LIMIT 1)) AS has_height',
  ];
  if (w.internalTxs)
    parts.push('ifNull((SELECT height FROM evm_internal_txs ORDER BY height DESC LIMIT 1), 0) AS internal_height');
  if (w.richList)
    parts.push(
      'ifNull((SELECT snapshot_height FROM richlist_snapshots ORDER BY snapshot_height DESC LIMIT 1), 0) AS rich_height',
    );
  // any() over the (possibly empty) latest row: an empty scalar of LowCardinality(String) cannot be NULL
  if (w.chainId)
    parts.push('(SELECT any(c) FROM (SELECT chain_id AS c FROM blocks ORDER BY height DESC LIMIT 1)) AS chain_id');
  return `SELECT ${parts.join(', ')}`;
}

export async function statusFacts(
  store: Store,
  wants: StatusWants = { internalTxs: true, richList: true, chainId: true },
): Promise<StatusFacts> {
  const [r] = await store.rows<{
    height: string | null;
    has_height: string;
    internal_height?: string;
    rich_height?: string;
    chain_id?: string;
  }>(statusSql(wants));
  const height = r && Number(r.has_height) > 0 && r.height !== null ? Number(r.height) : null;
  const internalTxHeight = Number(r?.internal_height ?? 0);
  let above = 0;
  if (internalTxHeight > 0) {
    const [a] = await store.rows<{ n: string }>(
      'SELECT count() AS n FROM blocks WHERE height > {h:UInt64} AND tx_count > 0',
      { h: internalTxHeight },
    );
    above = Number(a?.n ?? 0);
  }
  return {
    height,
    internalTxHeight,
    richListHeight: Number(r?.rich_height ?? 0),
    txBlocksAboveInternal: above,
    latestChainId: r?.chain_id ?? '',
  };
}

/** Last complete indexed height, 0 when nothing is indexed yet. */
export async function indexedHeight(store: Store): Promise<number> {
  const [r] = await store.rows<{ height: string }>(
    'SELECT height FROM ingest_checkpoints ORDER BY height DESC LIMIT 1',
  );
  return r ? Number(r.height) : 0;
}
