// The EVM sample chain serves its auth and bank state at any height (issue 26), as a minievm node does: the
// genesis openings plus the Transfer logs up to the asked height, every ERC20 under its `evm/<contract>` denom.
// It is what the ingest's balance seed reads on a first start, which used to fail on every sample chain.
import { fromHex, toBech32 } from '@cosmjs/encoding';
import { getAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvmSampleManifest } from '../../../devnet/sample-chains/evm.js';
import { evmLogsOfEvents, topicAddr } from '../../../devnet/sample-chains/evm-activity.js';
import { buildSample, startSampleChain } from '../../../devnet/sample-chains/serve.js';

let sample: Awaited<ReturnType<typeof startSampleChain>>;
let m: EvmSampleManifest;
const bech = (hex: string) => toBech32('init', fromHex(hex.slice(2)));

beforeAll(async () => {
  sample = await startSampleChain('evm');
  m = sample.manifest as EvmSampleManifest;
});
afterAll(async () => {
  await sample?.stop();
});

async function get(path: string, height?: number): Promise<{ status: number; body: any }> {
  const r = await fetch(`${sample.restUrl}${path}`, {
    headers: height === undefined ? {} : { 'x-cosmos-block-height': String(height) },
  });
  return { status: r.status, body: await r.json() };
}

async function allAccounts(height?: number): Promise<string[]> {
  const out: string[] = [];
  let key: string | null = null;
  do {
    const q: string = `pagination.limit=7${key ? `&pagination.key=${encodeURIComponent(key)}` : ''}`;
    const r = await get(`/cosmos/auth/v1beta1/accounts?${q}`, height);
    expect(r.status).toBe(200);
    out.push(...r.body.accounts.map((a: { address: string }) => a.address));
    key = r.body.pagination.next_key;
  } while (key);
  return out;
}

describe('EVM sample chain auth/bank state', () => {
  it('at the tip: every holder of the replayed state, with its ERC20 balances as bank coins', async () => {
    const accounts = await allAccounts();
    const holders = new Set(
      Object.values(m.expected.erc20Balances).flatMap((h) => Object.keys(h).filter((a) => BigInt(h[a]!) > 0n)),
    );
    expect(new Set(accounts)).toEqual(new Set([...holders].map(bech)));
    for (const [token, hs] of Object.entries(m.expected.erc20Balances).slice(0, 3))
      for (const [holder, amount] of Object.entries(hs).slice(0, 5)) {
        const r = await get(`/cosmos/bank/v1beta1/balances/${bech(holder)}`);
        expect(r.body.balances).toContainEqual({ denom: `evm/${getAddress(token).slice(2)}`, amount });
      }
  });

  it('never a negative balance: holders that spend what no log gave them hold it from genesis', async () => {
    const openings = Object.entries(m.expected.openingBalances).flatMap(([t, hs]) =>
      Object.entries(hs).map(([h, v]) => [t, h, v] as const),
    );
    expect(openings.length).toBeGreaterThan(0); // the fee token's payers
    for (const hs of Object.values(m.expected.erc20Balances))
      for (const v of Object.values(hs)) expect(BigInt(v)).toBeGreaterThan(0n);
  });

  it('at a height: the openings plus the logs of the blocks up to it; a future height is a 400', async () => {
    const { chain } = buildSample('evm');
    const [token, holder, opening] = Object.entries(m.expected.openingBalances)
      .flatMap(([t, hs]) => Object.entries(hs).map(([h, v]) => [t, h, v] as const))
      .at(0)!;
    const denom = `evm/${getAddress(token).slice(2)}`;
    let running = BigInt(opening);
    const seenBalances = new Set<bigint>();
    for (let h = 1; h <= chain.latestHeight(); h++) {
      for (const t of chain.block(h)?.txs ?? [])
        if (t.result.code === 0)
          for (const l of evmLogsOfEvents(t.result.events))
            if (l.address.toLowerCase() === token && l.topics.length === 3 && l.data.length === 66) {
              if (topicAddr(l.topics[1]!) === holder) running -= BigInt(l.data);
              if (topicAddr(l.topics[2]!) === holder) running += BigInt(l.data);
            }
      const r = await get(`/cosmos/bank/v1beta1/balances/${bech(holder)}`, h);
      const served = BigInt(r.body.balances.find((c: { denom: string }) => c.denom === denom)?.amount ?? '0');
      expect(served, `height ${h}`).toBe(running);
      seenBalances.add(served);
    }
    expect(seenBalances.size).toBeGreaterThan(1); // the balance moves within the range
    for (const v of seenBalances) expect(v).toBeGreaterThanOrEqual(0n);
    const future = await get('/cosmos/auth/v1beta1/accounts', m.latestHeight + 1000);
    expect(future.status).toBe(400);
    const bad = await get('/cosmos/bank/v1beta1/balances/init1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq');
    expect(bad.status).toBe(400);
  });
});
