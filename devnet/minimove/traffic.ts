// Traffic for a minimove devnet: real signed txs broadcast to the node, never rows written to our store.
// Bank sends, a fungible-asset transfer, the on-chain stdlib's no-code NFTs (0x1::simple_nft create_collection,
// mint; 0x1::object::transfer; simple_nft::burn), feegrant (grant, revoke) and authz (grant, exec), and txs that fail in DeliverTx (a bank
// overdraft, a burn by a non-owner). Each step states whether it must succeed; the run throws if the node
// disagrees, so the checks downstream never run on traffic that did not happen.
import { MsgExecuteJSON } from '@initia/initia.proto/initia/move/v1/tx.js';
import { GenericAuthorization } from 'cosmjs-types/cosmos/authz/v1beta1/authz';
import { MsgExec, MsgGrant } from 'cosmjs-types/cosmos/authz/v1beta1/tx';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { BasicAllowance } from 'cosmjs-types/cosmos/feegrant/v1beta1/feegrant';
import { MsgGrantAllowance, MsgRevokeAllowance } from 'cosmjs-types/cosmos/feegrant/v1beta1/tx';
import type { Any } from 'cosmjs-types/google/protobuf/any';
import { deriveDevAccounts, type DevAccount } from '../minievm/accounts.js';
import { type Included, type SentStep, StepTraffic } from '../minievm/cosmos-sender.js';
import { getJson, type NodeEndpoints } from '../minievm/node-client.js';

export const DENOM = 'umin';
export const MOVE_ACCOUNTS = 8;
const SIMPLE_NFT = '0x1::simple_nft::SimpleNft';

export interface MintedNft {
  collection: string;
  /** the NFT object's address, 0x-hex as the chain's events print it */
  object: string;
  tokenId: string;
}

export interface MoveTrafficResult {
  accounts: DevAccount[];
  sent: SentStep[];
  /** object addresses of the collections this run created */
  collections: string[];
  /** every NFT this run minted (burned ones included) */
  minted: MintedNft[];
  lastHeight: number;
}

/** A Move `address` argument: the account's 20 bytes as 0x-hex. */
export const moveAddress = (a: DevAccount): string => a.evmAddress.toLowerCase();

export function msgSendAny(from: string, to: string, amount: bigint): Any {
  return {
    typeUrl: '/cosmos.bank.v1beta1.MsgSend',
    value: MsgSend.encode(
      MsgSend.fromPartial({ fromAddress: from, toAddress: to, amount: [{ denom: DENOM, amount: amount.toString() }] }),
    ).finish(),
  };
}

/** MsgExecuteJSON: each argument is one JSON value (u64 and BigDecimal as strings, Option as null or the value). */
export function executeJsonAny(
  sender: string,
  target: `0x1::${string}::${string}`,
  typeArgs: string[],
  args: unknown[],
): Any {
  const [, moduleName, functionName] = target.split('::') as [string, string, string];
  return {
    typeUrl: '/initia.move.v1.MsgExecuteJSON',
    value: MsgExecuteJSON.encode(
      MsgExecuteJSON.fromPartial({
        sender,
        moduleAddress: '0x1',
        moduleName,
        functionName,
        typeArgs,
        args: args.map((a) => JSON.stringify(a)),
      }),
    ).finish(),
  };
}

interface MoveEvent {
  typeTag: string;
  data: Record<string, unknown>;
}

/** The `move` events of an included tx (attributes type_tag and data). */
export function moveEvents(included: Included): MoveEvent[] {
  return included.events
    .filter((e) => e.type === 'move')
    .map((e) => {
      const attr = (k: string) => e.attributes.find((a) => a.key === k)?.value ?? '';
      return { typeTag: attr('type_tag'), data: JSON.parse(attr('data') || '{}') as Record<string, unknown> };
    });
}

export class MoveTraffic extends StepTraffic {
  private exec(from: number, target: `0x1::${string}::${string}`, typeArgs: string[], args: unknown[]): Any {
    return executeJsonAny(this.acct(from).bech32, target, typeArgs, args);
  }

  async run(tag: string): Promise<MoveTrafficResult> {
    const a = (i: number) => this.acct(i);
    const collectionName = (n: number) => `Devnet Move ${tag} #${n}`;
    const createArgs = (n: number, maxSupply: string | null) => [
      `collection ${n} of run ${tag}`,
      maxSupply,
      collectionName(n),
      `https://devnet.example/${tag}/${n}`,
      true,
      true,
      true,
      true,
      true,
      true,
      '0',
    ];
    const umin = await getJson<{ metadata: string }>(`${this.ep.rest}/initia/move/v1/metadata?denom=${DENOM}`);

    // Round 1: two collections (one capped), a bank send, a fungible-asset transfer, a failing overdraft.
    const created = await Promise.all([
      this.step('create_collection', 1, [this.exec(1, '0x1::simple_nft::create_collection', [], createArgs(1, null))]),
      this.step('create_collection', 2, [this.exec(2, '0x1::simple_nft::create_collection', [], createArgs(2, '100'))]),
      this.step('bank send', 3, [msgSendAny(a(3).bech32, a(4).bech32, 1_000n)]),
      this.step('fungible asset transfer', 4, [
        this.exec(
          4,
          '0x1::primary_fungible_store::transfer',
          ['0x1::fungible_asset::Metadata'],
          [umin.metadata, moveAddress(a(5)), '2000'],
        ),
      ]),
      this.step('bank overdraft', 5, [msgSendAny(a(5).bech32, a(6).bech32, 2n * 10n ** 17n)], false),
    ]);
    const collections = created
      .slice(0, 2)
      .map((r) => moveEvents(r).find((e) => e.typeTag === '0x1::collection::CreateCollectionEvent')?.data.collection)
      .map((c) => {
        if (typeof c !== 'string') throw new Error('create_collection emitted no CreateCollectionEvent');
        return c;
      });

    // Round 2: mints, each creator's back to back (one sequence after another), into other accounts or kept.
    const mint = (creator: number, n: number, id: string, to: DevAccount | null) =>
      this.exec(
        creator,
        '0x1::simple_nft::mint',
        [],
        [
          collectionName(n),
          `token ${id}`,
          id,
          `https://devnet.example/${tag}/${n}/${id}`,
          [],
          [],
          [],
          to ? moveAddress(to) : null,
        ],
      );
    const mintPlan: [number, number, string, DevAccount | null][] = [
      [1, 1, `${tag}-a`, a(3)],
      [1, 1, `${tag}-b`, a(4)],
      [1, 1, `${tag}-c`, a(5)],
      [1, 1, `${tag}-d`, null],
      [2, 2, `${tag}-e`, null],
      [2, 2, `${tag}-f`, a(6)],
    ];
    const mints: Promise<Included>[] = [];
    for (const [creator, n, id, to] of mintPlan) {
      const r = await this.sender.broadcast(a(creator), [mint(creator, n, id, to)], { memo: 'devnet mint' });
      mints.push(r.included);
    }
    const minted: MintedNft[] = [];
    for (const r of await Promise.all(mints)) {
      this.record('mint', r);
      const ev = moveEvents(r).find((e) => e.typeTag === '0x1::collection::MintEvent');
      if (!ev) throw new Error(`mint ${r.hash} emitted no 0x1::collection::MintEvent`);
      minted.push({
        collection: String(ev.data.collection),
        object: String(ev.data.nft),
        tokenId: String(ev.data.token_id),
      });
    }
    const nft = (id: string) => {
      const m = minted.find((x) => x.tokenId === `${tag}-${id}`);
      if (!m) throw new Error(`token ${tag}-${id} was not minted`);
      return m.object;
    };

    // Round 3: a transfer, a burn by the owner, a burn by a non-owner (fails), feegrant and authz grants.
    await Promise.all([
      this.step('nft transfer', 3, [
        this.exec(3, '0x1::object::transfer', [SIMPLE_NFT], [nft('a'), moveAddress(a(6))]),
      ]),
      this.step('nft burn', 4, [this.exec(4, '0x1::simple_nft::burn', [SIMPLE_NFT], [nft('b')])]),
      this.step('nft burn by a non-owner', 5, [this.exec(5, '0x1::simple_nft::burn', [SIMPLE_NFT], [nft('d')])], false),
      this.step('feegrant', 6, [
        {
          typeUrl: '/cosmos.feegrant.v1beta1.MsgGrantAllowance',
          value: MsgGrantAllowance.encode({
            granter: a(6).bech32,
            grantee: a(7).bech32,
            allowance: {
              typeUrl: '/cosmos.feegrant.v1beta1.BasicAllowance',
              value: BasicAllowance.encode({ spendLimit: [{ denom: DENOM, amount: '5000' }] }).finish(),
            },
          }).finish(),
        },
      ]),
      this.step('authz grant', 7, [
        {
          typeUrl: '/cosmos.authz.v1beta1.MsgGrant',
          value: MsgGrant.encode({
            granter: a(7).bech32,
            grantee: a(1).bech32,
            grant: {
              authorization: {
                typeUrl: '/cosmos.authz.v1beta1.GenericAuthorization',
                value: GenericAuthorization.encode({ msg: '/cosmos.bank.v1beta1.MsgSend' }).finish(),
              },
            },
          }).finish(),
        },
      ]),
    ]);
    // Round 4: the grantee spends through authz; the transferred NFT moves again.
    await Promise.all([
      this.step('authz exec', 1, [
        {
          typeUrl: '/cosmos.authz.v1beta1.MsgExec',
          value: MsgExec.encode({ grantee: a(1).bech32, msgs: [msgSendAny(a(7).bech32, a(2).bech32, 777n)] }).finish(),
        },
      ]),
      this.step('nft transfer', 6, [
        this.exec(6, '0x1::object::transfer', [SIMPLE_NFT], [nft('a'), moveAddress(a(2))]),
      ]),
    ]);
    // The allowance is revoked again, so the next run can grant it anew.
    await this.step('feegrant revoke', 6, [
      {
        typeUrl: '/cosmos.feegrant.v1beta1.MsgRevokeAllowance',
        value: MsgRevokeAllowance.encode({ granter: a(6).bech32, grantee: a(7).bech32 }).finish(),
      },
    ]);
    return {
      accounts: this.accounts,
      sent: this.sent,
      collections,
      minted,
      lastHeight: Math.max(...this.sent.map((s) => s.height)),
    };
  }
}

export function runMoveTraffic(ep: NodeEndpoints, tag: string): Promise<MoveTrafficResult> {
  return new MoveTraffic(ep, deriveDevAccounts(MOVE_ACCOUNTS)).run(tag);
}
