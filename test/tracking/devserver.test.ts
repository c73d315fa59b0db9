// The embedded Temporal dev server's start-up when one of its ports is taken between choosing and binding it
// (seen once in CI: the CLI's own HTTP API port, taken by another process of the parallel suite). The real CLI, a
// real socket holding the port.
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, startDevServer, type DevServer } from '../../tracking/devserver.js';
import type { Logger } from '../../platform/log.js';

interface Logged {
  event: string;
  fields?: Record<string, unknown>;
}

function capture(onEvent: (e: Logged) => void = () => undefined): { log: Logger; events: Logged[] } {
  const events: Logged[] = [];
  const log: Logger = {
    debug() {},
    info(event, fields) {
      events.push({ event, fields });
      onEvent({ event, fields });
    },
    warn(event, fields) {
      events.push({ event, fields });
      onEvent({ event, fields });
    },
    error(event, fields) {
      events.push({ event, fields });
    },
    child() {
      return log;
    },
  };
  return { log, events };
}

interface Held {
  /** Stops listening and drops the connections it accepted, as a process giving the port back would. */
  release(): Promise<void>;
}

/** A plain TCP listener on the port: it accepts and never speaks gRPC. */
async function hold(port: number): Promise<Held> {
  const sockets = new Set<net.Socket>();
  const srv = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(port, '127.0.0.1', () => resolve());
  });
  let released: Promise<void> | undefined;
  return {
    release() {
      released ??= new Promise<void>((resolve) => {
        srv.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      return released;
    },
  };
}

const dirs: string[] = [];
const held: Held[] = [];
let dev: DevServer | undefined;
afterEach(async () => {
  await dev?.stop();
  dev = undefined;
  for (const h of held.splice(0)) await h.release();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'devserver-test-'));
  dirs.push(d);
  return d;
}

describe('dev server start-up with a port taken', () => {
  it('retries a bind failure and starts once the port is free again', async () => {
    const port = await freePort();
    const taken = await hold(port);
    held.push(taken);
    const { log, events } = capture((e) => {
      // The first failed attempt frees the port, as the racing process would have by then in the suite.
      if (e.event === 'temporal.devserver.retry') void taken.release();
    });
    dev = await startDevServer({ dataDir: dataDir(), port, log, readyTimeoutMs: 60_000 });
    const retries = events.filter((e) => e.event === 'temporal.devserver.retry');
    expect(retries).toHaveLength(1);
    expect(String(retries[0]!.fields?.reason)).toMatch(/address already in use/);
    expect(events.at(-1)?.event).toBe('temporal.devserver.started');
    expect(dev.address).toBe(`127.0.0.1:${port}`);
  }, 90_000);

  it('gives up after three attempts with the CLI error, without hanging on a socket that never answers', async () => {
    const port = await freePort();
    held.push(await hold(port));
    const { log, events } = capture();
    const t0 = Date.now();
    await expect(startDevServer({ dataDir: dataDir(), port, log, readyTimeoutMs: 60_000 })).rejects.toThrow(
      /exited during start-up: .*address already in use/s,
    );
    expect(events.filter((e) => e.event === 'temporal.devserver.retry')).toHaveLength(2);
    // Well inside the 60 s readiness timeout: each attempt ended on the child's exit, not on a stalled probe.
    expect(Date.now() - t0).toBeLessThan(45_000);
  }, 90_000);
});
