// The L1 Move sample chain (interwoven-1): every real (non-synthetic) L1 Move tx of the tx-decoder
// fixtures: bank, authz, feegrant, distribution, mstaking, dex / stableswap / clamm / minitswap, vip,
// usernames, Move NFT mint + object transfer, IBC ICS-20 / ICS-721 send and receive, the OPinit
// deposit, and the failed tx. Recorded REST answers (Move resources, denoms, validators) are served.
import { loadIndex, recordedGets } from './fixtures.js';
import {
  buildSampleChain,
  byOriginalTime,
  dedupeByOriginalHash,
  fromRecorded,
  type SampleManifest,
} from './builder.js';
import { recordedRoutes, type SampleRoute } from './routes.js';
import type { SimChain } from '../chain-sim/chain.js';
import { replayMoveNfts, type ExpectedNft } from './nft-replay.js';

export interface MoveSampleManifest extends SampleManifest {
  /** Move NFTs alive at the tip with their owners (replayed from the served move events). */
  expectedNfts: ExpectedNft[];
}

const MOVE_FILE =
  /^(cosmos\/move\/|common\/failed\.json$|protocols\/ibc\/move\/|protocols\/op-init\/initiate-token-deposit\.json$)/;

/** Recorded under ibc/move but executed on moo-1 (fee denom `gas`, packet to channel-0): a rollup tx, served by the wasm chain. */
export const ROLLUP_RECEIVE = {
  file: 'protocols/ibc/move/receive-ft-move.json',
  export: 'mockFtReceiveMoveTransaction',
};

export function moveFixtureRows(): Array<{ file: string; export: string }> {
  return loadIndex().filter(
    (r) =>
      r.kind === 'cosmos_tx_response' && !r.synthetic && MOVE_FILE.test(r.file) && r.export !== ROLLUP_RECEIVE.export,
  );
}

export function buildMoveChain(): { chain: SimChain; manifest: MoveSampleManifest; routes: SampleRoute[] } {
  const rows = moveFixtureRows();
  const txs = dedupeByOriginalHash(byOriginalTime(rows.map((r) => fromRecorded(r.file, r.export))));
  const { chain, manifest } = buildSampleChain({
    chainId: 'interwoven-1',
    vm: 'move',
    moniker: 'chain-sim-l1',
    blockIntervalMs: 5000,
    layout: [1, 2, 0, 1, 3, 1, 0, 2],
    txs,
    notes: [
      'chain id interwoven-1: the Initia L1 mainnet the txs were recorded on (a few are from initiation-2 by fee denom; all are L1 Move).',
      'txs ordered by their recorded timestamps; 5 s block spacing like the L1; duplicate exports of one tx are served once.',
      'synthetic tx-decoder txs (hashes like TEST…) are excluded.',
    ],
  });
  const files = [...new Set(rows.map((r) => r.file))];
  const { routes } = recordedRoutes(files);
  const gets = recordedGets(files);
  const expectedNfts = replayMoveNfts(chain, (object) => {
    const list = gets.get(`/initia/move/v1/accounts/${object}/resources`) as
      | { resources?: Array<{ struct_tag: string; move_resource: string }> }
      | undefined;
    const nft = list?.resources?.find((r) => r.struct_tag === '0x1::nft::Nft');
    return nft
      ? (JSON.parse(nft.move_resource) as { data: { collection: { inner: string }; token_id: string } }).data
      : undefined;
  });
  return { chain, manifest: { ...manifest, expectedNfts }, routes };
}
