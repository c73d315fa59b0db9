// The EVM sample chain's auth and bank state at any height, as a minievm node serves it over REST
// (`/cosmos/auth/v1beta1/accounts`, `/cosmos/bank/v1beta1/balances/{address}` with `x-cosmos-block-height`):
// minievm keeps every coin in an ERC20 contract, so an account's bank balances are its ERC20 balances, under the
// denom `evm/<checksummed contract>`. The state is the genesis openings (replayTransfers' openingBalances) plus
// the Transfer logs of the successful txs up to that height. The ingest's balance seed reads it on first start.
import { fromBech32, fromHex, toBech32 } from '@cosmjs/encoding';
import { getAddress } from 'ethers';
import type { SimChain } from '../chain-sim/chain.js';
import { grpcError, type RestHandler } from '../chain-sim/rest.js';
import type { EvmLog } from '../../chain/events.js';
import { erc20Changes } from './evm-activity.js';
import type { SampleRoute } from './routes.js';

/** An ERC20 balance change at a height. */
interface HeightDelta {
  height: number;
  token: string;
  holder: string;
  amount: bigint;
}

export class SampleBankState {
  /**
   * `logs`: the EVM logs of the chain's successful txs with their heights, in chain order (the ones the expected
   * state was replayed from); `openings`: that replay's opening balances.
   */
  private readonly deltas: HeightDelta[];
  constructor(
    private readonly chain: SimChain,
    private readonly openings: Record<string, Record<string, string>>,
    logs: { height: number; log: EvmLog }[],
  ) {
    this.deltas = logs.flatMap(({ height, log }) => erc20Changes(log).map((c) => ({ height, ...c })));
  }

  /** holder (0x, lowercase) → token → balance at `height`; zero balances are left out. */
  at(height: number): Map<string, Map<string, bigint>> {
    const out = new Map<string, Map<string, bigint>>();
    const add = (holder: string, token: string, v: bigint) => {
      const m = out.get(holder) ?? new Map<string, bigint>();
      out.set(holder, m);
      m.set(token, (m.get(token) ?? 0n) + v);
    };
    for (const [token, holders] of Object.entries(this.openings))
      for (const [holder, v] of Object.entries(holders)) add(holder, token, BigInt(v));
    for (const d of this.deltas) if (d.height <= height) add(d.holder, d.token, d.amount);
    for (const [holder, m] of out) {
      for (const [token, v] of m) if (v === 0n) m.delete(token);
      if (m.size === 0) out.delete(holder);
    }
    return out;
  }

  /** The two REST routes, at the request's height (the latest when none is given). */
  routes(): SampleRoute[] {
    const heightOf = (h: number | undefined) => {
      const latest = this.chain.latestHeight();
      if (h === undefined || h === 0) return latest;
      return h > latest ? undefined : h;
    };
    const tooHigh = () => grpcError(400, 3, 'cannot query with height in the future; please provide a valid height');
    const accounts: RestHandler = (_m, q, ctx) => {
      const h = heightOf(ctx.height);
      if (h === undefined) return tooHigh();
      const all = [...this.at(h).keys()].sort();
      const limit = Math.min(Math.max(Number(q.get('pagination.limit') ?? 100) || 100, 1), 1000);
      const key = q.get('pagination.key');
      const offset = key ? Number(Buffer.from(key, 'base64').toString('utf8')) || 0 : 0;
      const page = all.slice(offset, offset + limit);
      const next = offset + limit < all.length ? Buffer.from(String(offset + limit)).toString('base64') : null;
      return {
        accounts: page.map((hex, i) => ({
          '@type': '/cosmos.auth.v1beta1.BaseAccount',
          address: toBech32('init', fromHex(hex.slice(2))),
          pub_key: null,
          account_number: String(offset + i + 1),
          sequence: '0',
        })),
        pagination: { next_key: next, total: String(all.length) },
      };
    };
    const balances: RestHandler = (m, _q, ctx) => {
      const h = heightOf(ctx.height);
      if (h === undefined) return tooHigh();
      let hex: string;
      try {
        // the checksum is checked: an address that fails it is a 400, as on a node
        hex = `0x${Buffer.from(fromBech32(m[1] ?? '').data).toString('hex')}`;
      } catch {
        return grpcError(400, 3, `invalid address: ${m[1]}`);
      }
      const coins = [...(this.at(h).get(hex) ?? new Map<string, bigint>())]
        .map(([token, v]) => ({ denom: `evm/${getAddress(token).slice(2)}`, amount: v.toString() }))
        .sort((a, b) => (a.denom < b.denom ? -1 : 1));
      return { balances: coins, pagination: { next_key: null, total: String(coins.length) } };
    };
    return [
      { pattern: /^\/cosmos\/auth\/v1beta1\/accounts$/, handler: accounts },
      { pattern: /^\/cosmos\/bank\/v1beta1\/balances\/(init1[0-9a-z]{38,58})$/, handler: balances },
    ];
  }
}
