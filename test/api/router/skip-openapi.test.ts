// Skip's own OpenAPI document (test/support/skip-openapi.ts) applied to our router's answers: every endpoint Skip
// documents and we serve, over HTTP on the real router app (mainnet registry), and every status document the real
// tracking (chDB, Temporal dev server, simnet) writes along transfers of every kind and outcome. Initia's
// additions (route extra_infos / extra_warnings / required_op_hook, chain rpc / rest / hidden / evm_fee_asset, asset
// hidden, a balance chain's address and error) are extra properties, which Skip's schemas allow.
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer } from '../../../api/http/app.js';
import { SIM } from '../../../devnet/simnet/index.js';
import { loadSkipOpenapi } from '../../support/skip-openapi.js';
import { serveRouter, startHarness, terminal, type Harness } from '../../tracking/harness.js';

const skip = loadSkipOpenapi();
const USER = 'init1dw49mn7s2r5mskjdmus5hth80zz8wwaywycq06';
const INIT_ECHELON = 'l2/23c8396041db74441f4268d0c7e0533177dc3e028a47a8e584318f2d0c46fbe9';
const deposit = {
  amount_in: '1000000',
  source_asset_chain_id: 'interwoven-1',
  source_asset_denom: 'uinit',
  dest_asset_chain_id: 'echelon-1',
  dest_asset_denom: INIT_ECHELON,
};

let h: Harness;
let server: Server;
let url: string;
beforeAll(async () => {
  h = await startHarness({ simnet: { delays: { recvMs: 600, ackMs: 400 } } });
  ({ server, url } = await serveRouter(h));
}, 120_000);
afterAll(async () => {
  if (server) await closeServer(server);
  await h?.close();
});

async function call(method: 'get' | 'post', p: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const r = await fetch(`${url}${p}`, {
    method: method.toUpperCase(),
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: await r.json() };
}

/** Our answer to `method p` is 200 and valid against Skip's declared 200 response (of `skipMethod`, default the same). */
async function conforms(method: 'get' | 'post', p: string, body?: unknown, skipMethod: 'get' | 'post' = method) {
  const r = await call(method, p, body);
  expect({ p, status: r.status }).toEqual({ p, status: 200 });
  const violations = skip.check(p.split('?')[0]!, skipMethod, r.body);
  expect({ p, violations }).toEqual({ p, violations: [] });
  return r.body as Record<string, any>;
}

describe("our answers against Skip's OpenAPI", () => {
  it('route and msgs (OPinit deposit, IBC with packet forwarding)', async () => {
    const routes = [
      deposit,
      {
        amount_in: '1000000',
        source_asset_chain_id: 'echelon-1',
        source_asset_denom: 'ibc/AA4E7DF065DC4D4B29B8662A919295F525B19251FB2618C41C0DED3BD1128FEE',
        dest_asset_chain_id: 'noble-1',
        dest_asset_denom: 'uusdc',
      },
    ];
    for (const req of routes) {
      const route = await conforms('post', '/v2/fungible/route', { ...req, cumulative_affiliate_fee_bps: '0' });
      const addrs = (route.required_chain_addresses as string[]).map((c) =>
        c === 'noble-1' ? 'noble1dw49mn7s2r5mskjdmus5hth80zz8wwayg3dmuk' : USER,
      );
      await conforms('post', '/v2/fungible/msgs', {
        ...req,
        amount_out: route.amount_out,
        address_list: addrs,
        operations: route.operations,
        slippage_tolerance_percent: '1',
        timeout_seconds: '600',
      });
    }
  });

  it('msgs_direct, chains, assets, bridges, balances, assets_from_source, assets_between_chains, recommend and origin assets', async () => {
    const direct = await conforms('post', '/v2/fungible/msgs_direct', {
      ...deposit,
      chain_ids_to_addresses: { 'interwoven-1': USER, 'echelon-1': USER },
      slippage_tolerance_percent: '1',
      timeout_seconds: '300',
    });
    expect(direct.route.dest_asset_denom).toBe(INIT_ECHELON);
    await conforms('get', '/v2/info/chains?include_evm=true');
    await conforms('get', '/v2/fungible/assets?chain_ids=interwoven-1&chain_ids=echelon-1');
    await conforms('get', '/v2/info/bridges');
    await conforms('get', '/v2/fungible/venues');
    // No REST endpoint is configured here: every asked denom answers with its error, in Skip's entry shape.
    const bal = await conforms('post', '/v2/info/balances', {
      chains: { 'interwoven-1': { address: USER, denoms: ['uinit'] } },
    });
    expect(bal.chains['interwoven-1'].denoms.uinit.error.message).toMatch(/no REST endpoint/);
    const from = await conforms('post', '/v2/fungible/assets_from_source', {
      source_asset_chain_id: 'interwoven-1',
      source_asset_denom: 'uinit',
    });
    expect(from.dest_assets['echelon-1'].assets.map((a: { denom: string }) => a.denom)).toContain(INIT_ECHELON);
    const between = { source_chain_id: 'interwoven-1', dest_chain_id: 'echelon-1' };
    await conforms('post', '/v2/fungible/assets_between_chains', between);
    // @skip-go/client sends it as a GET with a query string; the answer is the same document.
    await conforms(
      'get',
      '/v2/fungible/assets_between_chains?source_chain_id=interwoven-1&dest_chain_id=echelon-1',
      undefined,
      'post',
    );
    await conforms('post', '/v2/fungible/recommend_assets', {
      requests: [{ source_asset_chain_id: 'interwoven-1', source_asset_denom: 'uinit', dest_chain_id: 'echelon-1' }],
    });
    await conforms('post', '/v2/fungible/ibc_origin_assets', {
      assets: [{ chain_id: 'echelon-1', denom: INIT_ECHELON }],
    });
  });

  it('error answers are Skip Error documents', async () => {
    for (const [method, p, body] of [
      ['post', '/v2/fungible/route', { ...deposit, amount_in: '-1' }],
      ['post', '/v2/fungible/route', { ...deposit, source_asset_chain_id: 'nope-1' }],
      ['post', '/v2/tx/submit', { chain_id: 'interwoven-1', tx: 'CgA=' }],
      ['get', `/v2/tx/status?chain_id=interwoven-1&tx_hash=${'12'.repeat(32)}`, undefined],
    ] as const) {
      const r = await call(method, p, body);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect({ p, violations: skip.checkSchema('Error', r.body) }).toEqual({ p, violations: [] });
    }
  });

  it('every status document of transfers of every kind and outcome, from registration to the end', async () => {
    const sent = [
      h.simnet.ibcTransfer({ from: SIM.move, channel: 'channel-0', forward: { channel: 'channel-2' } }),
      h.simnet.ibcTransfer({ from: SIM.l1, channel: 'channel-1', outcome: 'timeout' }),
      h.simnet.ibcTransfer({ from: SIM.l1, channel: 'channel-2', outcome: 'errorAck' }),
      h.simnet.deposit({ l2: SIM.move }),
      h.simnet.deposit({ l2: SIM.evm, outcome: 'hookFail' }),
      h.simnet.withdraw({ l2: SIM.evm }),
      h.simnet.lzSend(),
      h.simnet.failedTx(),
    ];
    for (const tx of sent) expect((await h.track(tx.chainId, tx.txHash)).status).toBe(200);
    const seen = new Map<string, Set<string>>();
    const open = new Set(sent.map((t) => t.txHash));
    const end = Date.now() + 60_000;
    while (open.size && Date.now() < end) {
      for (const tx of sent) {
        if (!open.has(tx.txHash)) continue;
        const r = await call('get', `/v2/tx/status?chain_id=${tx.chainId}&tx_hash=${tx.txHash}`);
        expect(r.status).toBe(200);
        const doc = r.body as Record<string, any>;
        expect({ tx: tx.txHash, state: doc.state, violations: skip.check('/v2/tx/status', 'get', doc) }).toEqual({
          tx: tx.txHash,
          state: doc.state,
          violations: [],
        });
        // One transfers element from the first answer on, agreeing with the deprecated top-level copies.
        expect(doc.transfers).toHaveLength(1);
        expect(doc.transfers[0].state).toBe(doc.state);
        const states = seen.get(tx.txHash) ?? new Set();
        states.add(doc.state);
        seen.set(tx.txHash, states);
        if (terminal(doc)) open.delete(tx.txHash);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect([...open]).toEqual([]);
    // The registration answer itself was validated for at least some transfers (it is the first state seen).
    expect([...seen.values()].some((s) => s.has('STATE_SUBMITTED') || s.has('STATE_PENDING'))).toBe(true);
  }, 90_000);
});
