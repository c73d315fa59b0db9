// Registry loading: the shipped networks, channel pairing, and clear start-up errors for bad custom files.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFIG_DIR, loadRouterRegistry, RegistryError } from '../../routing/registry.js';

const readJson = (p: string) => JSON.parse(readFileSync(path.join(CONFIG_DIR, 'registry', p), 'utf8'));
const tmp = mkdtempSync(path.join(tmpdir(), 'router-reg-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const bundle = (b: unknown) => {
  const f = path.join(tmp, `b${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(f, JSON.stringify(b));
  return f;
};
const l1 = { chain: readJson('mainnets/initia/chain.json'), assetlist: readJson('mainnets/initia/assetlist.json') };
const echelon = {
  chain: readJson('mainnets/echelon/chain.json'),
  assetlist: readJson('mainnets/echelon/assetlist.json'),
};

describe('shipped registries', () => {
  it('mainnet: L1, current and removed rollups, external IBC chains from traces, LayerZero chains', () => {
    const reg = loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' });
    expect(reg.l1ChainId).toBe('interwoven-1');
    expect(reg.chains.get('echelon-1')?.opBridgeId).toBe(16n);
    expect(reg.chains.get('moo-1')?.removed).toBe(true);
    expect(reg.chains.get('echelon-1')?.removed).toBe(false);
    // Both ends of the L1 ↔ echelon channel, as docs/router.md's example states.
    expect(reg.chains.get('interwoven-1')?.channels.get('echelon-1')).toEqual({
      channel: 'channel-35',
      counterpartyChannel: 'channel-0',
    });
    // noble-1 is not in the registry: its end of channel-3 comes from USDC's trace.
    expect(reg.chains.get('noble-1')?.channels.get('interwoven-1')).toEqual({
      channel: 'channel-129',
      counterpartyChannel: 'channel-3',
    });
    expect(reg.chains.get('1')?.vm).toBe('external-evm');
    expect(reg.layerZero.map((d) => d.endpointId).sort()).toEqual([30101, 30326]);
  });
  it('testnet: initiation-2 with endpoint 40326', () => {
    const reg = loadRouterRegistry({ ROUTER_NETWORK: 'testnet' });
    expect(reg.l1ChainId).toBe('initiation-2');
    expect(reg.chains.get('initiation-2')?.channels.get('move-1')).toEqual({
      channel: 'channel-3075',
      counterpartyChannel: 'channel-0',
    });
    expect(reg.layerZero.find((d) => d.chain_id === 'initiation-2')?.endpointId).toBe(40326);
  });
});

describe('custom registry files fail at start-up with one clear line', () => {
  it('accepts a valid bundle', () => {
    const reg = loadRouterRegistry({
      ROUTER_NETWORK: 'custom',
      ROUTER_REGISTRY_FILE: bundle({ network: 'mine', chains: [l1, echelon] }),
    });
    expect(reg.network).toBe('mine');
    expect([...reg.chains.keys()]).toContain('echelon-1');
  });
  it('accepts a folder laid out like config/registry/mainnets', () => {
    const reg = loadRouterRegistry({
      ROUTER_NETWORK: 'custom',
      ROUTER_REGISTRY_FILE: path.join(CONFIG_DIR, 'registry', 'testnets'),
    });
    expect(reg.l1ChainId).toBe('initiation-2');
  });
  it('a folder reads the ERC20 contracts of op-hooks from its erc20.json', () => {
    const dir = mkdtempSync(path.join(tmp, 'folder-'));
    for (const [name, files] of Object.entries({ initia: l1, echelon }))
      for (const [file, body] of Object.entries({ 'chain.json': files.chain, 'assetlist.json': files.assetlist })) {
        mkdirSync(path.join(dir, name), { recursive: true });
        writeFileSync(path.join(dir, name, file), JSON.stringify(body));
      }
    const row = { chain_id: 'echelon-1', denom: 'l2/abc', address: '0x41Dda9c5f6937146Ae4b4A6f99f37F75d5420AeB' };
    writeFileSync(path.join(dir, 'erc20.json'), JSON.stringify([row]));
    const reg = loadRouterRegistry({ ROUTER_NETWORK: 'custom', ROUTER_REGISTRY_FILE: dir });
    expect(reg.erc20.get('echelon-1')?.get('l2/abc')).toBe(row.address);
    writeFileSync(path.join(dir, 'erc20.json'), JSON.stringify([{ ...row, address: 'nope' }]));
    expect(() => loadRouterRegistry({ ROUTER_NETWORK: 'custom', ROUTER_REGISTRY_FILE: dir })).toThrow(/erc20/);
  });
  const cases: [string, () => unknown, RegExp][] = [
    [
      'missing file setting',
      () => loadRouterRegistry({ ROUTER_NETWORK: 'custom' }),
      /ROUTER_REGISTRY_FILE is required/,
    ],
    [
      'missing file',
      () => loadRouterRegistry({ ROUTER_NETWORK: 'custom', ROUTER_REGISTRY_FILE: '/nonexistent/x.json' }),
      /does not exist/,
    ],
    [
      'not JSON',
      () => {
        const f = path.join(tmp, 'bad.json');
        writeFileSync(f, '{');
        return loadRouterRegistry({ ROUTER_NETWORK: 'custom', ROUTER_REGISTRY_FILE: f });
      },
      /bad\.json: .*JSON/,
    ],
    [
      'bad chain id',
      () =>
        loadRouterRegistry({
          ROUTER_NETWORK: 'custom',
          ROUTER_REGISTRY_FILE: bundle({ chains: [{ ...l1, chain: { ...l1.chain, chain_id: 'bad id!' } }] }),
        }),
      /chains\[0\]\/chain\.json: chain_id must be/,
    ],
    [
      'bad bridge id',
      () =>
        loadRouterRegistry({
          ROUTER_NETWORK: 'custom',
          ROUTER_REGISTRY_FILE: bundle({
            chains: [
              l1,
              { ...echelon, chain: { ...echelon.chain, metadata: { ...echelon.chain.metadata, op_bridge_id: 'x' } } },
            ],
          }),
        }),
      /metadata\.op_bridge_id must be a decimal uint64/,
    ],
    [
      'rollup without bridge',
      () =>
        loadRouterRegistry({
          ROUTER_NETWORK: 'custom',
          ROUTER_REGISTRY_FILE: bundle({
            chains: [
              l1,
              {
                ...echelon,
                chain: { ...echelon.chain, metadata: { ...echelon.chain.metadata, op_bridge_id: undefined } },
              },
            ],
          }),
        }),
      /op_bridge_id is required for rollups/,
    ],
    [
      'no L1',
      () => loadRouterRegistry({ ROUTER_NETWORK: 'custom', ROUTER_REGISTRY_FILE: bundle({ chains: [echelon] }) }),
      /exactly one L1/,
    ],
    [
      'duplicate chain',
      () => loadRouterRegistry({ ROUTER_NETWORK: 'custom', ROUTER_REGISTRY_FILE: bundle({ chains: [l1, l1] }) }),
      /duplicate chain_id interwoven-1/,
    ],
    [
      'bad asset',
      () =>
        loadRouterRegistry({
          ROUTER_NETWORK: 'custom',
          ROUTER_REGISTRY_FILE: bundle({
            chains: [{ ...l1, assetlist: { chain_name: 'initia', assets: [{ base: 'uinit' }] } }],
          }),
        }),
      /assetlist\.json: assets\.0\.symbol Required/,
    ],
    [
      'bad LayerZero',
      () =>
        loadRouterRegistry({
          ROUTER_NETWORK: 'custom',
          ROUTER_REGISTRY_FILE: bundle({
            chains: [l1],
            layerzero: {
              network: 'x',
              endpoints: {},
              assets: [{ symbol: 'ETH', shared_decimals: 6, deployments: [] }],
            },
          }),
        }),
      /layerzero config: assets\.0\.deployments/,
    ],
  ];
  for (const [name, fn, re] of cases)
    it(name, () => {
      expect(fn).toThrow(RegistryError);
      expect(fn).toThrow(re);
    });
});

describe('start-up', () => {
  it('the router process exits 2 with one clear line on a bad registry', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/serve-router.ts', '0'], {
      env: { ...process.env, ROUTER_NETWORK: 'custom', ROUTER_REGISTRY_FILE: bundle({ chains: [echelon] }) },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('registry: expected exactly one L1 chain (metadata.is_l1), found 0');
  });
});
