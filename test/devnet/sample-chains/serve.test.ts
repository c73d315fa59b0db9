// The three recorded sample chains, served over loopback and read back with the real clients: every tx
// hash is the sha256 of the raw bytes served, the manifest says where each recorded tx is, and the recorded
// events come back unchanged.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import {
  buildSample,
  startSampleChain,
  type SampleChainKind,
  type StartedSampleChain,
} from '../../../devnet/sample-chains/serve.js';
import type { MoveSampleManifest } from '../../../devnet/sample-chains/move.js';
import type { WasmSampleManifest } from '../../../devnet/sample-chains/wasm.js';
import { RICH_LIST_TOKEN, type EvmSampleManifest } from '../../../devnet/sample-chains/evm.js';
import { TRANSFER_TOPIC } from '../../../devnet/sample-chains/evm-activity.js';
import { loadExport, loadIndex, type RecordedTxResponse } from '../../../devnet/sample-chains/fixtures.js';

const started = new Map<SampleChainKind, StartedSampleChain>();

beforeAll(async () => {
  for (const k of ['evm', 'move', 'wasm'] as const) started.set(k, await startSampleChain(k));
});

afterAll(async () => {
  for (const s of started.values()) await s.stop();
});

const get = async (s: StartedSampleChain, path: string): Promise<any> => {
  // any: wire JSON
  const r = await fetch(`${s.restUrl}${path}`);
  return { status: r.status, body: await r.json() };
};

describe.each(['evm', 'move', 'wasm'] as const)('%s sample chain', (kind) => {
  it('serves raw txs whose sha256 is the manifest hash, consistently over RPC and REST', async () => {
    const s = started.get(kind)!;
    const c = await Comet38Client.connect(s.rpcUrl);
    const served: string[] = [];
    expect((await c.status()).syncInfo.latestBlockHeight).toBe(s.manifest.latestHeight);
    for (let h = 1; h <= s.manifest.latestHeight; h++) {
      const b = await c.block(h);
      expect(b.block.header.chainId).toBe(s.chainId);
      for (const raw of b.block.txs) served.push(createHash('sha256').update(raw).digest('hex').toUpperCase());
      const rest = await get(s, `/cosmos/tx/v1beta1/txs?query=${encodeURIComponent(`tx.height=${h}`)}`);
      expect(rest.body.tx_responses.map((t: any) => t.txhash)).toEqual(
        served.slice(served.length - b.block.txs.length),
      ); // any: wire JSON
    }
    c.disconnect();
    expect(served).toEqual(s.manifest.txs.map((t) => t.hash));
    expect(new Set(served).size).toBe(served.length);
    const times = Array.from({ length: s.manifest.latestHeight }, (_, i) => Date.parse(s.chain.block(i + 1)!.time));
    expect(times.every((t, i) => i === 0 || t > times[i - 1]!)).toBe(true);
  });

  it('serves every recorded Cosmos tx with its recorded events, code and messages', async () => {
    const s = started.get(kind)!;
    const recorded = new Map(
      loadIndex()
        .filter((r) => r.kind === 'cosmos_tx_response')
        .map((r) => [`${r.file}#${r.export}`, r]),
    );
    // A fixture trimmed of its signature is served re-signed, its signer replaced (sample-fidelity.test.ts).
    const rows = s.manifest.txs.filter((t) => recorded.has(`${t.file}#${t.export}`) && !t.note?.includes('re-signed'));
    expect(rows.length).toBeGreaterThan(kind === 'evm' ? 3 : 9);
    for (const t of rows) {
      const fx = loadExport<RecordedTxResponse>(t.file, t.export);
      const r = await get(s, `/cosmos/tx/v1beta1/txs/${t.hash}`);
      expect(r.status).toBe(200);
      expect(r.body.tx_response.height).toBe(String(t.height));
      expect(r.body.tx_response.code).toBe(fx.code);
      expect(r.body.tx_response.events).toEqual(fx.events);
      expect(r.body.tx.body.messages).toEqual(fx.tx.body.messages);
      expect(s.manifest.hashByOriginal[fx.txhash]).toBe(t.hash);
    }
  });
});

describe('move sample chain (interwoven-1)', () => {
  it('holds the OPinit deposit with l1_sequence 2009, the Move NFT mint and the failed tx', async () => {
    const s = started.get('move')!;
    expect(s.chainId).toBe('interwoven-1');
    const c = await Comet38Client.connect(s.rpcUrl);
    const found = await c.txSearch({ query: "initiate_token_deposit.l1_sequence='2009'" });
    expect(found.totalCount).toBe(1);
    const hash = Buffer.from(found.txs[0]!.hash).toString('hex').toUpperCase();
    expect(hash).toBe(s.manifest.hashByOriginal['93AF9DE37F48C9E03C928DDB314D82B79C093958BD0E45FE60BDC65322564614']);
    const dep = s.manifest.txs.find((t) => t.hash === hash)!;
    expect(dep.msgTypes).toEqual(['/opinit.ophost.v1.MsgInitiateTokenDeposit']);
    expect(
      found.txs[0]!.result.events.find((e) => e.type === 'initiate_token_deposit')!.attributes.find(
        (a) => a.key === 'bridge_id',
      )?.value,
    ).toBe('30');
    const mints = await c.txSearch({ query: "move.type_tag='0x1::collection::MintEvent'" });
    expect(mints.totalCount).toBeGreaterThanOrEqual(1);
    const failedTx = s.manifest.txs.find((t) => t.file === 'common/failed.json')!;
    expect(failedTx.code).toBe(1);
    expect((await c.tx({ hash: Buffer.from(failedTx.hash, 'hex') })).result.code).toBe(1);
    c.disconnect();
  });

  it('serves the Move resources the NFT derivation reads, by struct tag too', async () => {
    const s = started.get('move')!;
    const nft = await get(
      s,
      '/initia/move/v1/accounts/0xeafbe62f2441e2ecce99db4cfbab294f7542d78ce2d82ca28de13da0a9d41b86/resources/by_struct_tag?struct_tag=0x1::nft::Nft',
    );
    expect(nft.status).toBe(200);
    expect(JSON.parse(nft.body.resource.move_resource).data.token_id).toBe('1');
    const coll = await get(
      s,
      '/initia/move/v1/accounts/0x597cd3f37f21f59c771731a31e92ac1214f72b4f8a86541a94b50f0308f4e20/resources',
    );
    expect(coll.body.resources.map((r: any) => r.struct_tag)).toContain('0x1::collection::Collection'); // any: wire JSON
    expect(
      (
        await get(
          s,
          '/initia/move/v1/accounts/0xeafbe62f2441e2ecce99db4cfbab294f7542d78ce2d82ca28de13da0a9d41b86/resources/by_struct_tag?struct_tag=0x1::nope::X',
        )
      ).status,
    ).toBe(404);
    const denom = await get(
      s,
      '/initia/move/v1/denom?metadata=0x8e4733bdabcf7d4afc3d14f0dd46c9bf52fb0fce9e4b996c939e195b8bc891d9',
    );
    expect(denom.body.denom).toBe('uinit');
    expect((await get(s, '/cosmos/base/tendermint/v1beta1/node_info')).body.default_node_info.network).toBe(
      'interwoven-1',
    );
  });
});

describe('expected NFT owners of the Move and Wasm chains', () => {
  it('Move: the recorded mint and object transfer give the owners the recorded ObjectCore resources show', async () => {
    const s = started.get('move')!;
    const nfts = (s.manifest as MoveSampleManifest).expectedNfts;
    const food = nfts.filter(
      (n) => n.collection === '0x597cd3f37f21f59c771731a31e92ac1214f72b4f8a86541a94b50f0308f4e20',
    );
    expect(food.map((n) => n.tokenId)).toEqual(['1', '3']);
    for (const n of food) {
      const core = await get(
        s,
        `/initia/move/v1/accounts/${n.object}/resources/by_struct_tag?struct_tag=0x1::object::ObjectCore`,
      );
      expect(JSON.parse(core.body.resource.move_resource).data.owner).toBe(n.owner);
    }
  });

  it('Wasm: the recorded CW721 mint owner', () => {
    const nfts = (started.get('wasm')!.manifest as WasmSampleManifest).expectedNfts;
    expect(nfts).toContainEqual({
      collection: 'init1qyygux5t4s3a3l25k8psxjydhtudu5lnt0tk0szm8q4s27xa980scjvh6c',
      tokenId: '1',
      owner: 'init1dw49mn7s2r5mskjdmus5hth80zz8wwaywycq06',
    });
  });

  it('every build of a sample chain is identical (tests may pin hashes)', () => {
    for (const k of ['evm', 'move', 'wasm'] as const) {
      expect(buildSample(k).manifest.txs.map((t) => t.hash)).toEqual(started.get(k)!.manifest.txs.map((t) => t.hash));
    }
  });
});

describe('live tip', () => {
  it('keeps appending empty blocks after the recorded ones when asked to', async () => {
    const s = await startSampleChain('wasm', { produceBlocksMs: 20 });
    try {
      await new Promise((r) => setTimeout(r, 200));
      const c = await Comet38Client.connect(s.rpcUrl);
      const tip = (await c.status()).syncInfo.latestBlockHeight;
      expect(tip).toBeGreaterThan(s.manifest.latestHeight + 2);
      expect((await c.block(tip)).block.txs.length).toBe(0);
      c.disconnect();
    } finally {
      await s.stop();
    }
  });
});

describe('wasm sample chain (intergaze-1)', () => {
  it('holds the CW721 mint, CW20 transfer, the failed instantiate, and serves instantiated contracts', async () => {
    const s = started.get('wasm')!;
    expect(s.chainId).toBe('intergaze-1');
    const c = await Comet38Client.connect(s.rpcUrl);
    const mint = await c.txSearch({ query: "wasm.action='mint'" });
    expect(mint.totalCount).toBeGreaterThanOrEqual(1);
    const failedInst = s.manifest.txs.find(
      (t) => t.originalHash === '41787FF63125791ECFB396A625D365CAFD61C68C1ACF7E3707220CE6BEDBC53C',
    )!;
    expect(failedInst.code).toBe(4);
    c.disconnect();
    const contract = await get(
      s,
      '/cosmwasm/wasm/v1/contract/init1wug8sewp6cedgkmrmvhl3lf3tulagm9hnvy8p0rppz9yjw0g4wtq7947m6',
    );
    expect(contract.status).toBe(200);
    expect(contract.body.contract_info.code_id).toBe('2');
  });
});

describe('evm sample chain (yominet-1)', () => {
  it('has a rich list of ≥ 20 holders that the served Cosmos evm events agree with', async () => {
    const s = started.get('evm')!;
    const m = s.manifest as EvmSampleManifest;
    const expected = m.expected.erc20Balances[RICH_LIST_TOKEN]!;
    expect(Object.values(expected).filter((v) => BigInt(v) > 0n).length).toBeGreaterThanOrEqual(20);
    // Recompute from the Cosmos side (block_results `evm` events), independently of the EVM receipts.
    const c = await Comet38Client.connect(s.rpcUrl);
    const bal = new Map<string, bigint>();
    for (let h = 1; h <= m.latestHeight; h++) {
      for (const r of (await c.blockResults(h)).results) {
        for (const e of r.events.filter((x) => x.type === 'evm')) {
          for (const a of e.attributes.filter((x) => x.key === 'log')) {
            const log = JSON.parse(a.value) as { address: string; topics: string[]; data: string };
            if (
              log.address.toLowerCase() !== RICH_LIST_TOKEN ||
              log.topics.length !== 3 ||
              log.topics[0] !== TRANSFER_TOPIC
            )
              continue;
            const from = `0x${log.topics[1]!.slice(26)}`;
            const to = `0x${log.topics[2]!.slice(26)}`;
            if (!/^0x0+$/.test(from)) bal.set(from, (bal.get(from) ?? 0n) - BigInt(log.data));
            bal.set(to, (bal.get(to) ?? 0n) + BigInt(log.data));
          }
        }
      }
    }
    c.disconnect();
    expect(Object.fromEntries([...bal].filter(([, v]) => v !== 0n).map(([k, v]) => [k, v.toString()]))).toEqual(
      expected,
    );
    const byDenom = await get(
      s,
      '/minievm/evm/v1/contracts/by_denom?denom=evm/4BaDFb501Ab304fF11217C44702bb9E9732E7CF4',
    );
    expect(byDenom.body.address.toLowerCase()).toBe(RICH_LIST_TOKEN);
  });

  it('has ≥ 2 NFT collections with mints, transfers and a burn, and marks derived txs', () => {
    const m = started.get('evm')!.manifest as EvmSampleManifest;
    const full = m.nftCollections.filter(
      (c) =>
        (m.expected.nftMints[c] ?? 0) > 0 &&
        (m.expected.nftTransfers[c] ?? 0) > 0 &&
        (m.expected.nftBurned[c]?.length ?? 0) > 0,
    );
    expect(full.length).toBeGreaterThanOrEqual(2);
    // The recorded transferFrom moved token 4561 away from 0x19f8…; the recorded Kami721 mint gave token 100 to 0x5634….
    const recordedMove = loadExport<{ txReceipt: { logs: Array<{ topics: string[] }> } }>(
      'ethereum/erc721/erc721-transfer-from.json',
      'mockErc721TransferFromPayload',
    ).txReceipt.logs[0]!;
    expect(BigInt(recordedMove.topics[3]!)).toBe(4561n);
    expect(m.expected.nftOwners['0x5d4376b62fa8ac16dfabe6a9861e11c33a48c677']!['4561']).toBe(
      `0x${recordedMove.topics[2]!.slice(26)}`,
    );
    expect(m.expected.nftOwners['0x014c4861f5f19b4c86f26657dd40c1a18539d11a']!['100']).toBe(
      '0x563466dec7f74bcbe97cd3bed1cbad3336c989ee',
    );
    expect(m.txs.filter((t) => t.derived).every((t) => t.file === 'derived' && t.note)).toBe(true);
    expect(m.txs.filter((t) => !t.derived).length).toBe(15);
  });

  it('mirrors Cosmos txs that emit EVM logs into pseudo EVM txs whose input is the Cosmos hash', async () => {
    const s = started.get('evm')!;
    const bank = s.manifest.txs.find((t) => t.file === 'cosmos/evm/bank-evm.json')!;
    expect(bank.evmTxHashes.length).toBe(1);
    const res = (await (
      await fetch(s.evmUrl!, {
        method: 'POST',
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'eth_getTransactionByHash',
          params: [bank.evmTxHashes[0]],
        }),
      })
    ).json()) as any; // any: wire JSON
    expect(res.result.input).toBe(`0x${bank.hash.toLowerCase()}`);
    expect(res.result.from).toBe('0x0000000000000000000000000000000000000000');
  });
});
