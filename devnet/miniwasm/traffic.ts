// Traffic for a miniwasm devnet: real signed txs broadcast to the node, never rows written to our store.
// Stores and instantiates the two contracts the miniwasm source tree carries (the ibc-hooks `counter` and the
// CW721 `cw721_metadata_onchain` that miniwasm's own launch deploys), executes the counter, mints, transfers and
// burns CW721 tokens, sends bank transfers, and makes txs that fail in DeliverTx (a bank overdraft, a message the
// contract rejects). Each step states whether it must succeed; the run throws if the node disagrees.
// No CW20 code ships with miniwasm v1.2.11, so there is no CW20 traffic.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { MsgExecuteContract, MsgInstantiateContract, MsgStoreCode } from 'cosmjs-types/cosmwasm/wasm/v1/tx';
import type { Any } from 'cosmjs-types/google/protobuf/any';
import { deriveDevAccounts, type DevAccount } from '../minievm/accounts.js';
import { type Included, type SentStep, StepTraffic } from '../minievm/cosmos-sender.js';
import type { NodeEndpoints } from '../minievm/node-client.js';

export const DENOM = 'umin';
export const WASM_ACCOUNTS = 8;
const STORE_GAS = 20_000_000; // the CW721 code costs about 9.5 M to store
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * A contract binary from the miniwasm source tree that build.sh extracted beside the binary
 * ($CHAIN_INFRA_CACHE/miniwasm-<version>/src); build.sh is idempotent and answers at once when cached.
 */
export function wasmArtifact(relative: 'counter' | 'cw721'): Uint8Array {
  const bin = execFileSync('bash', [path.join(ROOT, 'devnet/miniwasm/build.sh')], { encoding: 'utf8' }).trim();
  const file =
    relative === 'counter'
      ? 'app/ibc-hooks/contracts/artifacts/counter.wasm'
      : 'contrib/wasm/cw721_metadata_onchain.wasm';
  return readFileSync(path.join(path.dirname(bin), 'src', file));
}

export interface Cw721Minted {
  contract: string;
  tokenId: string;
}

export interface WasmTrafficResult {
  accounts: DevAccount[];
  sent: SentStep[];
  counter: string;
  /** CW721 contract addresses (bech32) this run instantiated */
  collections: string[];
  minted: Cw721Minted[];
  lastHeight: number;
}

const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

/** The value of `key` in the first event of `type` in an included tx. */
export function eventAttr(r: Included, type: string, key: string): string {
  for (const e of r.events)
    if (e.type === type) {
      const a = e.attributes.find((x) => x.key === key);
      if (a) return a.value;
    }
  throw new Error(`tx ${r.hash} has no ${type}.${key}`);
}

export class WasmTraffic extends StepTraffic {
  private send(from: number, to: number, amount: bigint): Any {
    return {
      typeUrl: '/cosmos.bank.v1beta1.MsgSend',
      value: MsgSend.encode(
        MsgSend.fromPartial({
          fromAddress: this.acct(from).bech32,
          toAddress: this.acct(to).bech32,
          amount: [{ denom: DENOM, amount: amount.toString() }],
        }),
      ).finish(),
    };
  }

  private execute(from: number, contract: string, msg: unknown): Any {
    return {
      typeUrl: '/cosmwasm.wasm.v1.MsgExecuteContract',
      value: MsgExecuteContract.encode(
        MsgExecuteContract.fromPartial({ sender: this.acct(from).bech32, contract, msg: json(msg) }),
      ).finish(),
    };
  }

  /**
   * `cw721: false` leaves the CW721 contract out (the code is still stored): the reference indexer crashes on the
   * block that instantiates one (docs/indexer.md), so its differential runs on the rest.
   */
  async run(tag: string, opts: { cw721?: boolean } = {}): Promise<WasmTrafficResult> {
    const withNfts = opts.cw721 ?? true;
    const a = (i: number) => this.acct(i);
    const store = (from: number, code: Uint8Array): Any => ({
      typeUrl: '/cosmwasm.wasm.v1.MsgStoreCode',
      value: MsgStoreCode.encode(MsgStoreCode.fromPartial({ sender: a(from).bech32, wasmByteCode: code })).finish(),
    });
    const instantiate = (from: number, codeId: string, label: string, msg: unknown): Any => ({
      typeUrl: '/cosmwasm.wasm.v1.MsgInstantiateContract',
      value: MsgInstantiateContract.encode(
        MsgInstantiateContract.fromPartial({
          sender: a(from).bech32,
          admin: a(from).bech32,
          codeId: BigInt(codeId),
          label,
          msg: json(msg),
        }),
      ).finish(),
    });

    // Round 1: store both codes, a bank send, a failing overdraft.
    const [counterCode, cw721Code] = await Promise.all([
      this.step('store counter', 1, [store(1, wasmArtifact('counter'))], true, STORE_GAS),
      this.step('store cw721', 2, [store(2, wasmArtifact('cw721'))], true, STORE_GAS),
      this.step('bank send', 3, [this.send(3, 4, 1_000n)]),
      this.step('bank overdraft', 5, [this.send(5, 6, 10n ** 30n)], false),
    ]);
    // Round 2: instantiate both.
    const counterInit = this.step('instantiate counter', 1, [
      instantiate(1, eventAttr(counterCode!, 'store_code', 'code_id'), `counter ${tag}`, {}),
    ]);
    // Instantiated by account 6 with account 2 as its minter: the collection's creator is the instantiator
    // (contract_info.creator), which the node check compares, not the minter.
    const cw721Init = withNfts
      ? this.step('instantiate cw721', 6, [
          instantiate(6, eventAttr(cw721Code!, 'store_code', 'code_id'), `cw721 ${tag}`, {
            name: `Devnet Wasm ${tag}`,
            symbol: 'DWASM',
            minter: a(2).bech32,
          }),
        ])
      : undefined;
    const counter = eventAttr(await counterInit, 'instantiate', '_contract_address');
    if (!cw721Init) {
      await this.step('counter increase', 1, [this.execute(1, counter, { increase: {} })]);
      await this.step('unknown contract message', 5, [this.execute(5, counter, { no_such_message: {} })], false);
      return this.result(counter, [], []);
    }
    const cw721 = eventAttr(await cw721Init, 'instantiate', '_contract_address');

    // Round 3: the counter twice, mints back to back by the minter, into other accounts or kept.
    const ids = ['a', 'b', 'c', 'd'].map((x) => `${tag}-${x}`);
    const owners = [a(3), a(4), a(5), a(2)];
    const mints: Promise<Included>[] = [];
    for (const [i, id] of ids.entries()) {
      const mint = this.execute(2, cw721, {
        mint: {
          token_id: id,
          owner: owners[i]?.bech32,
          token_uri: `https://devnet.example/${tag}/${id}`,
          extension: { name: `token ${id}`, description: `devnet token ${id}` },
        },
      });
      mints.push((await this.sender.broadcast(a(2), [mint], { memo: 'devnet mint' })).included);
    }
    await Promise.all([
      this.step('counter increase', 1, [this.execute(1, counter, { increase: {} })]),
      this.step('counter increase', 6, [this.execute(6, counter, { increase: {} })]),
    ]);
    for (const r of await Promise.all(mints)) {
      this.record('mint', r);
    }

    // Round 4: a transfer, a burn by the owner, a message the contract rejects, a transfer by a non-owner.
    await Promise.all([
      this.step('nft transfer', 3, [
        this.execute(3, cw721, { transfer_nft: { recipient: a(6).bech32, token_id: ids[0] } }),
      ]),
      this.step('nft burn', 4, [this.execute(4, cw721, { burn: { token_id: ids[1] } })]),
      this.step('unknown contract message', 5, [this.execute(5, counter, { no_such_message: {} })], false),
      this.step(
        'nft transfer by a non-owner',
        7,
        [this.execute(7, cw721, { transfer_nft: { recipient: a(7).bech32, token_id: ids[2] } })],
        false,
      ),
    ]);
    // Round 5: the transferred token moves again.
    await this.step('nft transfer', 6, [
      this.execute(6, cw721, { transfer_nft: { recipient: a(1).bech32, token_id: ids[0] } }),
    ]);
    return this.result(
      counter,
      [cw721],
      ids.map((tokenId) => ({ contract: cw721, tokenId })),
    );
  }

  private result(counter: string, collections: string[], minted: Cw721Minted[]): WasmTrafficResult {
    return {
      accounts: this.accounts,
      sent: this.sent,
      counter,
      collections,
      minted,
      lastHeight: Math.max(...this.sent.map((s) => s.height)),
    };
  }
}

export function runWasmTraffic(
  ep: NodeEndpoints,
  tag: string,
  opts: { cw721?: boolean } = {},
): Promise<WasmTrafficResult> {
  return new WasmTraffic(ep, deriveDevAccounts(WASM_ACCOUNTS)).run(tag, opts);
}
