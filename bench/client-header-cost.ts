// What a response's header lines cost the load generator (not the server) in a side-by-side on shared cores: the same
// tiny JSON body answered by a bare `net` server (one fixed buffer per request, so the server's share is constant),
// once with the header lines our edge sends on a hit and once with the ones rollytics sends (as counted by
// bench/rollytics.ts's bytes per response: 113 bytes fewer on every row). autocannon (the same client as the
// side-by-side, its own process) at 32 connections; its CPU per 1,000 requests from bash's `times`, the server's
// from this process, interleaved rounds with the CPU calibration loop beside each.
//
// Usage: npx tsx bench/client-header-cost.ts [--rounds R (3)] [--seconds S (5)]
import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuCalibrationMs } from './machine.js';
import { option } from './side-by-side.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const rounds = Number(option(args, '--rounds', '3'));
const seconds = Number(option(args, '--seconds', '5'));
if (!(rounds >= 1 && rounds <= 20) || !(seconds >= 1 && seconds <= 60)) {
  console.error('usage: bench/client-header-cost.ts [--rounds 1..20] [--seconds 1..60]');
  process.exit(2);
}

// avg_blocktime's body on the side-by-side's devnet (its length is what matters here).
const body = '{"avg_block_time":0.5004510349999999}';
const date = new Date().toUTCString();
const heads: Record<string, string[]> = {
  // Our edge's hit: the lane's headers, then node's own (api/http/edge-wire.ts `bytesOf`).
  ours: [
    'X-Cache: hit',
    'Access-Control-Allow-Origin: *',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${body.length}`,
    'X-Served-By: edge',
    `Date: ${date}`,
    'Connection: keep-alive',
    'Keep-Alive: timeout=5',
  ],
  // rollytics (fiber) on a request without Origin: no CORS header, no Connection or Keep-Alive line.
  rollytics: [`Date: ${date}`, 'Content-Type: application/json', `Content-Length: ${body.length}`, 'X-Cache: hit'],
};
const answer = (lines: string[]) => Buffer.from(`HTTP/1.1 200 OK\r\n${lines.join('\r\n')}\r\n\r\n${body}`, 'latin1');

/** A server answering every request head on a connection with the same bytes. */
async function serve(bytes: Buffer): Promise<net.Server> {
  const srv = net.createServer((s) => {
    let pending = '';
    s.on('error', () => undefined);
    s.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
        s.write(bytes);
        pending = pending.slice(end + 4);
      }
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return srv;
}

interface Cannon {
  requests: { average: number; total: number };
  throughput: { average: number };
  non2xx: number;
  errors: number;
}
const autocannon = path.join(here, '..', 'node_modules', '.bin', 'autocannon');
/** autocannon's JSON, and its CPU (user + system, ms) from bash's `times` (the shell's children). */
const cannon = (url: string): Promise<{ c: Cannon; clientCpuMs: number }> =>
  new Promise((resolve, reject) =>
    execFile(
      'bash',
      ['-c', `"$0" -j -c 32 -d ${seconds} "$1"; times >&2`, autocannon, url],
      { maxBuffer: 1 << 24 },
      (e, out, err) => {
        if (e) return reject(e);
        // `times`: the shell's user/sys, then its children's, as "0m1.234s 0m0.567s".
        const lines = err.trim().split('\n');
        const kids = (lines.at(-1) ?? '').match(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/);
        if (!kids) return reject(new Error(`no times in: ${err.slice(-300)}`));
        const ms = (m: string, s: string) => (Number(m) * 60 + Number(s)) * 1000;
        resolve({ c: JSON.parse(out) as Cannon, clientCpuMs: ms(kids[1]!, kids[2]!) + ms(kids[3]!, kids[4]!) });
      },
    ),
  );

const servers = Object.fromEntries(
  await Promise.all(Object.entries(heads).map(async ([k, lines]) => [k, await serve(answer(lines))] as const)),
);
for (let r = 0; r < rounds; r++) {
  for (const [name, srv] of Object.entries(servers)) {
    const calibration = cpuCalibrationMs();
    const url = `http://127.0.0.1:${(srv.address() as net.AddressInfo).port}/indexer/block/v1/avg_blocktime`;
    const cpu0 = process.cpuUsage();
    const { c, clientCpuMs } = await cannon(url);
    const cpu = process.cpuUsage(cpu0);
    if (c.non2xx + c.errors > 0) throw new Error(`${name}: ${c.non2xx + c.errors} requests failed`);
    const per1k = (ms: number) => Math.round((ms / c.requests.total) * 10_000) / 10;
    console.log(
      JSON.stringify({
        headers: name,
        bytes_per_response: answer(heads[name]!).length,
        req_per_s: Math.round(c.requests.average),
        client_cpu_ms_per_1k: per1k(clientCpuMs),
        server_cpu_ms_per_1k: per1k((cpu.user + cpu.system) / 1000),
        cpu_calibration_ms: calibration,
      }),
    );
  }
}
for (const srv of Object.values(servers)) srv.close();
