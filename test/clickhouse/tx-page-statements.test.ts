// A tx list page read in one statement (clickhouse/queries/txs.ts pickTxDocs: the page's documents picked and read
// together, what the API does for a list first asked at a tip or a page after a new cursor) equals the same page
// read in two (pickTxPage then txDocsBySequence, what it does when the documents are likely cached): every list of
// each sample chain (all, by message type, by account with and without is_signer, by height, by NFT), both
// directions, by offset and by cursor, with and without the tip bounding the list, with the total and (after a
// cursor) without it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTxDocs, pickTxDocs, sequenceAbove, type TxList } from '../../clickhouse/queries/txs.js';
import { ingestSampleChain, type IngestedSample } from '../support/sample.js';

/** Page windows (limit, offset): short, offset inside, longer than any list, offset past the end. */
const WINDOWS = [
  [3, 0],
  [2, 1],
  [101, 0],
  [2, 999],
] as const;
/** After a cursor the offset is always 0 (a cursor page never skips): its windows differ by limit only. */
const CURSOR_WINDOWS = [
  [3, 0],
  [2, 0],
  [101, 0],
] as const;

describe.each(['evm', 'move', 'wasm'] as const)('tx pages in one statement or two (%s)', (kind) => {
  let s: IngestedSample;

  beforeAll(async () => {
    s = await ingestSampleChain(kind);
  }, 180_000);
  afterAll(async () => {
    await s?.cleanup();
  });

  async function lists(): Promise<{ list: TxList; msgs: string[] | null }[]> {
    const accounts = await s.store.rows<{ account: string }>(
      'SELECT DISTINCT account FROM account_txs ORDER BY account LIMIT 6',
    );
    const heights = await s.store.rows<{ height: string }>(
      'SELECT DISTINCT height FROM txs ORDER BY height DESC LIMIT 4',
    );
    const nfts = await s.store.rows<{ collection: string; token_id: string }>(
      'SELECT DISTINCT collection, token_id FROM nft_token_txs ORDER BY collection, token_id LIMIT 6',
    );
    const types = await s.store.rows<{ msg_type: string }>(
      'SELECT msg_type FROM msg_type_txs GROUP BY msg_type ORDER BY count() DESC, msg_type LIMIT 2',
    );
    const out: { list: TxList; msgs: string[] | null }[] = [{ list: { kind: 'all' }, msgs: null }];
    for (const t of types) out.push({ list: { kind: 'all' }, msgs: [t.msg_type] });
    out.push({ list: { kind: 'all' }, msgs: types.map((t) => t.msg_type) });
    for (const a of accounts)
      for (const isSigner of [false, true])
        out.push({ list: { kind: 'account', account: a.account, isSigner }, msgs: null });
    if (accounts[0] && types[0])
      out.push({ list: { kind: 'account', account: accounts[0].account, isSigner: false }, msgs: [types[0].msg_type] });
    for (const h of heights) out.push({ list: { kind: 'height', height: Number(h.height) }, msgs: null });
    for (const n of nfts)
      out.push({ list: { kind: 'nft', collection: n.collection, tokenId: n.token_id }, msgs: null });
    expect(accounts.length).toBeGreaterThan(0);
    expect(heights.length).toBeGreaterThan(0);
    return out;
  }

  it('gives the same documents and total for every list, window and cursor', async () => {
    const [tip] = await s.store.rows<{ h: string }>('SELECT toString(max(height)) AS h FROM txs');
    const top = Number(tip?.h);
    let compared = 0;
    let nonEmpty = 0;
    for (const { list, msgs } of await lists()) {
      // The whole list, ascending, by the two-statement path: its sequences give cursors inside the list.
      const whole = await listTxDocs(
        s.store,
        list,
        { desc: false, limit: 10_000, offset: 0 },
        { msgs, maxSequence: sequenceAbove(top), cursor: null },
        false,
      );
      // Two cursors inside the list (its middle and its last document), besides none.
      const step = Math.max(1, Math.floor(whole.docs.length / 2));
      const inside = whole.docs.filter((_, i) => i % step === step - 1).slice(0, 2);
      const cursors = [null, ...inside.map((d) => Number(d.sequence))];
      for (const maxSequence of [sequenceAbove(top), sequenceAbove(Math.max(1, top - 3))])
        for (const desc of [true, false])
          for (const cursor of cursors)
            for (const [limit, offset] of cursor === null ? WINDOWS : CURSOR_WINDOWS) {
              const w = { desc, limit, offset };
              const scope = { msgs, maxSequence, cursor };
              const one = await pickTxDocs(s.store, list, w, scope, true);
              const two = await listTxDocs(s.store, list, w, scope, true);
              expect(
                one,
                JSON.stringify({ list, msgs, w, scope: { ...scope, maxSequence: String(maxSequence) } }),
              ).toEqual(two);
              compared++;
              if (one.docs.length > 0) nonEmpty++;
              // A page after a cursor whose total is already kept is also read in one statement, without the total.
              if (cursor !== null)
                expect(await pickTxDocs(s.store, list, w, scope, false)).toEqual({ docs: two.docs, total: '0' });
            }
    }
    expect(compared).toBeGreaterThan(500);
    expect(nonEmpty).toBeGreaterThan(compared / 4);
  }, 300_000);
});
