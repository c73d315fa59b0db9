// Denom formulas against reference examples and against every asset of the real registry.
import { describe, expect, it } from 'vitest';
import { ibcDenom, l2Denom, parseFullPath, traceToDenom } from '../../routing/denom.js';
import { loadRouterRegistry, type Registry } from '../../routing/registry.js';

describe('denom formulas', () => {
  it('derives OPinit l2/ denoms from bridge id and L1 denom (docs/router.md examples)', () => {
    expect(l2Denom(14n, 'uinit')).toBe('l2/333f8e6ae6855338f99d451126bfefc1b920763c16681d55fbc7df68ccb36972');
    expect(l2Denom(16n, 'uinit')).toBe('l2/23c8396041db74441f4268d0c7e0533177dc3e028a47a8e584318f2d0c46fbe9');
    expect(l2Denom(30n, 'uinit')).toBe('l2/9d3d65bf3329e45ad659f9cbee7d6dc7b6246b001e32131a9b465215eab90562');
  });
  it('derives ibc/ denoms over the full multi-hop path', () => {
    expect(ibcDenom('transfer/channel-6/weth-wei')).toBe(
      'ibc/BC8A77AFBD872FDC32A348D3FB10CC09277C266CFE52081DE341C7EC6752E674',
    );
    expect(traceToDenom(parseFullPath('transfer/channel-0/transfer/channel-3/uusdc'))).toBe(
      'ibc/AA4E7DF065DC4D4B29B8662A919295F525B19251FB2618C41C0DED3BD1128FEE',
    );
  });
  it('parses paths whose base denom contains slashes', () => {
    expect(parseFullPath('transfer/channel-71/factory/osmo1abc/umilkTIA')).toEqual({
      hops: ['transfer/channel-71'],
      base: 'factory/osmo1abc/umilkTIA',
    });
    expect(parseFullPath('l2/abc')).toEqual({ hops: [], base: 'l2/abc' });
  });
});

function checkRegistry(reg: Registry) {
  let checked = 0;
  const erc20Forms: string[] = [];
  for (const [chainId, assets] of reg.assets)
    for (const a of assets.values()) {
      const traces = a.raw.traces ?? [];
      const last = traces[traces.length - 1];
      if (!last) continue;
      if (last.type === 'wrapped') {
        // ERC20 wrapper (evm/<contract>): the denom is a contract address, not a hash. What it wraps must derive.
        expect(a.denom, `${chainId} ${a.symbol}`).toMatch(/^evm\/[0-9a-fA-F]{40}$/);
        expect(last.chain.contract).toMatch(/^0x[0-9a-fA-F]{40}$/);
        const under = traces[traces.length - 2];
        if (under?.type === 'ibc')
          expect(traceToDenom(parseFullPath(under.chain.path)), `${chainId} ${a.symbol} underlying`).toBe(
            last.counterparty.base_denom,
          );
        if (under?.type === 'op')
          expect(
            l2Denom(BigInt(under.chain.bridge_id), under.counterparty.base_denom),
            `${chainId} ${a.symbol} underlying`,
          ).toBe(last.counterparty.base_denom);
        erc20Forms.push(`${chainId}:${a.symbol}`);
      } else if (last.type === 'ibc') {
        expect(traceToDenom(parseFullPath(last.chain.path)), `${chainId} ${a.symbol}`).toBe(a.denom);
      } else if (last.type === 'op') {
        expect(l2Denom(BigInt(last.chain.bridge_id), last.counterparty.base_denom), `${chainId} ${a.symbol}`).toBe(
          a.denom,
        );
      }
      checked++;
    }
  return { checked, erc20Forms };
}

describe('every registry asset denom matches its derivation', () => {
  it('mainnet (current and removed rollups)', () => {
    const { checked, erc20Forms } = checkRegistry(loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' }));
    expect(checked).toBe(72);
    // The only legitimate differences: decimal-wrapped ERC20s on minievm rollups (documented in docs/router.md).
    expect(erc20Forms).toHaveLength(23);
  });
  it('testnet', () => {
    const { checked, erc20Forms } = checkRegistry(loadRouterRegistry({ ROUTER_NETWORK: 'testnet' }));
    expect(checked).toBe(11);
    expect(erc20Forms).toEqual(['evm-1:INIT']);
  });
  it('every OP-bridged rollup INIT is the l2/ denom of its bridge id (or wraps it)', () => {
    const reg = loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' });
    for (const c of reg.chains.values()) {
      if (c.opBridgeId === undefined || !c.opDenoms.includes('uinit')) continue;
      const init = [...(reg.assets.get(c.chainId)?.values() ?? [])].find((a) => a.symbol === 'INIT');
      // strat-1 lists IBC INIT (transfer/channel-0/uinit) rather than the OP-bridged one.
      if (init?.raw.traces?.[0]?.type !== 'op') continue;
      const want = l2Denom(c.opBridgeId, 'uinit');
      expect(init.wrapper ? init.wrapper.underlying : init.denom, c.chainId).toBe(want);
    }
  });
});
