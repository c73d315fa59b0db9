// REST lookups against a real HTTP server on loopback: proposer monikers cached under the stored key and
// never failing a block, refreshed behind the kept answer once it is old; denom resolution cached, failures as 400
// with the error text.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/http/errors.js';
import { createChainLookups } from '../../../api/indexer/read/lookups.js';
import { until } from '../../support/until.js';

let server: http.Server;
let base = '';
const hits = new Map<string, number>();
/** The moniker `initvaloper1renamed` has now, or null: that lookup fails (HTTP 500). */
let renamed: string | null = 'first';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.set(url.pathname + url.search, (hits.get(url.pathname + url.search) ?? 0) + 1);
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/opinit/opchild/v1/validator/initvaloper1known')
      return setTimeout(
        () => send(200, { validator: { moniker: 'alpha', operator_address: 'initvaloper1other' } }),
        20,
      );
    if (url.pathname === '/opinit/opchild/v1/validator/initvaloper1renamed')
      return renamed === null
        ? send(500, { code: 13, message: 'down' })
        : setTimeout(
            () => send(200, { validator: { moniker: renamed, operator_address: 'initvaloper1renamed' } }),
            200,
          );
    if (url.pathname.startsWith('/opinit/opchild/v1/validator/'))
      return send(404, { code: 5, message: 'validator not found' });
    if (url.pathname === '/minievm/evm/v1/contracts/by_denom' && url.searchParams.get('denom') === 'uinit')
      return send(200, { address: '0x4BADFB501AB304FF11217C44702BB9E9732E7CF4' });
    if (url.pathname === '/minievm/evm/v1/contracts/by_denom')
      return send(404, { code: 5, message: 'denom not found' });
    send(500, {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => {
  vi.useRealTimers();
});

describe('chain lookups', () => {
  it('resolves a proposer once for concurrent blocks and caches it under the stored key', async () => {
    const c = createChainLookups(base);
    const all = await Promise.all(Array.from({ length: 20 }, () => c.proposer('initvaloper1known')));
    for (const p of all) expect(p).toEqual({ moniker: 'alpha', identity: '', operator_address: 'initvaloper1other' });
    await c.proposer('initvaloper1known');
    expect(hits.get('/opinit/opchild/v1/validator/initvaloper1known')).toBe(1);
  });

  it('serves a kept moniker past ten minutes at once and refreshes it behind; a failed refresh keeps it', async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true }); // only the clock: timers run for real
    const path = '/opinit/opchild/v1/validator/initvaloper1renamed';
    const moniker = async (c: ReturnType<typeof createChainLookups>) =>
      (await c.proposer('initvaloper1renamed')).moniker;
    const c = createChainLookups(base);
    expect(await moniker(c)).toBe('first');
    expect(hits.get(path)).toBe(1);
    renamed = 'second';
    vi.setSystemTime(Date.now() + 5 * 60_000);
    expect(await moniker(c)).toBe('first'); // fresh: not asked again
    expect(hits.get(path)).toBe(1);
    vi.setSystemTime(Date.now() + 6 * 60_000);
    const t = performance.now();
    expect(await moniker(c)).toBe('first'); // old: served as kept, without waiting for the endpoint (200 ms)
    expect(performance.now() - t).toBeLessThan(100);
    await until(() => hits.get(path) === 2, 2_000, 'the refresh');
    await until(async () => (await moniker(c)) === 'second', 2_000, 'the refreshed moniker');
    expect(hits.get(path)).toBe(2); // one refresh, however many reads came meanwhile

    renamed = null; // the endpoint fails from now on
    vi.setSystemTime(Date.now() + 11 * 60_000);
    expect(await moniker(c)).toBe('second');
    await until(() => hits.get(path) === 3, 2_000, 'the failing refresh');
    await new Promise((r) => setTimeout(r, 50));
    expect(await moniker(c)).toBe('second'); // kept, and not asked again before 15 s
    expect(hits.get(path)).toBe(3);
    vi.setSystemTime(Date.now() + 16_000);
    expect(await moniker(c)).toBe('second');
    await until(() => hits.get(path) === 4, 2_000, 'the next try');
    vi.setSystemTime(Date.now() + 60 * 60_000); // past an hour since the last answer: no longer served
    expect(await moniker(c)).toBe('');
    renamed = 'first';
  });

  it('an unknown proposer or a dead endpoint still gives the known fields', async () => {
    expect(await createChainLookups(base).proposer('initvaloper1unknown')).toEqual({
      moniker: '',
      identity: '',
      operator_address: 'initvaloper1unknown',
    });
    expect(await createChainLookups('http://127.0.0.1:1').proposer('initvaloper1x')).toEqual({
      moniker: '',
      identity: '',
      operator_address: 'initvaloper1x',
    });
    expect(await createChainLookups(undefined).proposer('initvaloper1x')).toEqual({
      moniker: '',
      identity: '',
      operator_address: 'initvaloper1x',
    });
  });

  it('resolves denoms to lowercase ERC20 addresses; failures are 400s naming the denom', async () => {
    const c = createChainLookups(base);
    expect(await c.erc20ForDenom('uinit')).toBe('0x4badfb501ab304ff11217c44702bb9e9732e7cf4');
    await c.erc20ForDenom('uinit');
    expect(hits.get('/minievm/evm/v1/contracts/by_denom?denom=uinit')).toBe(1);
    const err = await c.erc20ForDenom('nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    expect((err as ApiError).message).toBe('cannot resolve denom nope: HTTP 404: denom not found');
    const none = await createChainLookups(undefined)
      .erc20ForDenom('uinit')
      .catch((e: unknown) => e);
    expect((none as ApiError).status).toBe(400);
  });
});
