// Status figures: indexed height (last complete checkpoint), EVM internal-tx height, rich-list height.
import type { Store } from '../client.js';

/** keccak256("Transfer(address,address,uint256)"): the log balance_deltas is built from. */
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

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

/**
 * The indexed height (the newest checkpoint) as a scalar subquery, read by key: only the last granule is touched, where
 * max(height) would read every checkpoint (one a batch, so one a block at the head). NULL when nothing is indexed.
 */
export const INDEXED_HEIGHT_SQL = '(SELECT height FROM ingest_checkpoints ORDER BY height DESC LIMIT 1)';

// Each max is read as "ORDER BY key DESC LIMIT 1" so only the last granule of each table is touched, and
// only the figures this deployment reports are read at all.
function statusSql(w: StatusWants): string {
  const parts = [
    `${INDEXED_HEIGHT_SQL} AS height`,
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
  // The rich list is rebuilt only when balances moved, so its last snapshot stays exact up to the indexed
  // height as long as no ERC20 Transfer log (the balance_deltas source) lies above it: then the list is
  // current at the indexed height, not at the last height that had logs.
  let richListHeight = Number(r?.rich_height ?? 0);
  if (height !== null && richListHeight > 0 && richListHeight < height) {
    const [m] = await store.rows<{ n: string }>(
      `SELECT count() AS n FROM (SELECT 1 FROM evm_logs
         WHERE height > {s:UInt64} AND height <= {h:UInt64} AND topic0 = {t:String} AND topics = 3 LIMIT 1)`,
      { s: richListHeight, h: height, t: TRANSFER_TOPIC },
    );
    if (Number(m?.n ?? 0) === 0) richListHeight = height;
  }
  return {
    height,
    internalTxHeight,
    richListHeight,
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
