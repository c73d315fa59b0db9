// POST /v2/info/balances' pure part (routing/balances.ts) over the shipped mainnet registry: amounts rendered with
// the registry's decimals, every request checked before any chain is read, a chain that cannot be read answering
// per denom, and "all denoms" for an empty list. The reader is the interface the chain I/O implements
// (routing/balance-reader.ts, exercised against the real devnet nodes in test/devnet/ibc/transfer.e2e.ts).
import { describe, expect, it } from 'vitest';
import { BalanceUnavailable, balancesHandler, formatAmount, type BalanceReader } from '../../routing/balances.js';
import type { RouteError } from '../../routing/errors.js';
import { loadRouterRegistry } from '../../routing/registry.js';

const reg = loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' });
const USER = 'init1dw49mn7s2r5mskjdmus5hth80zz8wwaywycq06';
const HEX = '0x6baa5dcfd050e9b85a4ddf214baee77884773ba4';
// The shape a Cosmos REST bank query answers, as the reader hands it on.
const held = new Map([
  ['uinit', '1500000'],
  ['l2/23c8396041db74441f4268d0c7e0533177dc3e028a47a8e584318f2d0c46fbe9', '7'],
]);

describe('formatAmount', () => {
  it('renders base units with exactly `decimals` places', () => {
    expect(formatAmount('1500000', 6)).toBe('1.500000');
    expect(formatAmount('7', 6)).toBe('0.000007');
    expect(formatAmount('0', 18)).toBe('0.000000000000000000');
    expect(formatAmount('123', 0)).toBe('123');
    expect(formatAmount('115792089237316195423570985008687907853269984665640564039457584007913129639935', 18)).toBe(
      '115792089237316195423570985008687907853269984665640564039457.584007913129639935',
    );
  });
});

describe('balancesHandler', () => {
  const reads: string[] = [];
  const reader: BalanceReader = async (chainId, address) => {
    reads.push(`${chainId} ${address}`);
    if (chainId === 'echelon-1') throw new BalanceUnavailable('echelon-1 REST answered HTTP 502');
    return held;
  };

  it('asked denoms with registry decimals (0 for one not held); an empty list means every denom held', async () => {
    const r = (await balancesHandler(reg, reader, {
      chains: { 'interwoven-1': { address: USER, denoms: ['uinit', 'uusdc'] } },
    })) as { chains: Record<string, any> };
    expect(r.chains['interwoven-1']).toEqual({
      address: USER,
      denoms: {
        uinit: { amount: '1500000', decimals: 6, formatted_amount: '1.500000' },
        uusdc: { amount: '0', decimals: 6, formatted_amount: '0.000000' },
      },
    });
    const all = (await balancesHandler(reg, reader, { chains: { 'interwoven-1': { address: USER, denoms: [] } } })) as {
      chains: Record<string, any>;
    };
    expect(Object.keys(all.chains['interwoven-1'].denoms)).toEqual([...held.keys()]);
  });

  it('answers every asked denom by its name, `__proto__` and `toString` included', async () => {
    const asked = ['__proto__', 'uinit', 'toString', 'constructor'];
    const r = (await balancesHandler(reg, reader, {
      chains: { 'interwoven-1': { address: USER, denoms: asked } },
    })) as { chains: Record<string, { denoms: Record<string, unknown> }> };
    const body = JSON.parse(JSON.stringify(r)) as typeof r;
    expect(Object.keys(body.chains['interwoven-1']!.denoms)).toEqual(asked);
  });

  it('a chain that cannot be read answers each asked denom with the error, beside the chains that can', async () => {
    const r = (await balancesHandler(reg, reader, {
      chains: {
        'interwoven-1': { address: USER, denoms: ['uinit'] },
        'echelon-1': { address: USER, denoms: ['uinit'] },
      },
    })) as { chains: Record<string, any> };
    expect(r.chains['interwoven-1'].denoms.uinit.amount).toBe('1500000');
    expect(r.chains['echelon-1']).toEqual({
      address: USER,
      denoms: {
        uinit: {
          amount: '0',
          decimals: 6,
          formatted_amount: '0.000000',
          error: { message: 'echelon-1 REST answered HTTP 502' },
        },
      },
      error: { message: 'echelon-1 REST answered HTTP 502' },
    });
  });

  it('a minievm chain is read under the bech32 form of a 0x address, answered under the address asked', async () => {
    reads.length = 0;
    const r = (await balancesHandler(reg, reader, {
      chains: { 'yominet-1': { address: HEX, denoms: ['uinit'] } },
    })) as {
      chains: Record<string, any>;
    };
    expect(reads).toEqual([`yominet-1 ${USER}`]);
    expect(r.chains['yominet-1'].address).toBe(HEX);
  });

  it('refuses an unknown chain (404) or a wrong address (400) before reading any chain', async () => {
    reads.length = 0;
    const kinds = async (body: Parameters<typeof balancesHandler>[2]) =>
      balancesHandler(reg, reader, body).then(
        () => 'ok',
        (e: RouteError) => `${e.kind}: ${e.message}`,
      );
    expect(await kinds({ chains: { 'interwoven-1': { address: USER }, 'nope-1': { address: USER } } })).toBe(
      'unsupported: chains.nope-1: chain nope-1 is not supported',
    );
    expect(await kinds({ chains: { 'interwoven-1': { address: HEX } } })).toMatch(/^invalid: .*needs a bech32 address/);
    expect(
      await kinds({ chains: { 'interwoven-1': { address: 'cosmos1dw49mn7s2r5mskjdmus5hth80zz8wwayqjcnyc' } } }),
    ).toMatch(/^invalid: .*addresses start with init/);
    expect(await kinds({ chains: {} })).toBe('invalid: chains: at least one chain is required');
    expect(reads).toEqual([]);
  });
});
