// The floor of a stream fan-out on this machine (decision 013): one Node HTTP server writes the same bytes to N
// open chunked responses, and the time from the first write to the next turn of its event loop (every byte handed to
// the kernel) is taken. Nothing else runs: no engine, no ingest. The clients are raw sockets in a child process
// that read and drop.
// Modes, interleaved in one session: `res` writes through `res.write` (node frames the chunk and corks the socket
// until the next tick); `socket` writes the bytes, framed once as one chunk, straight to each socket (what
// api/http/sse.ts does).
//   npx tsx bench/fanout-floor.ts [clients=1000] [bytes=20000,3000] [rounds=3]
import { fork } from 'node:child_process';
import http, { type ServerResponse } from 'node:http';
import net from 'node:net';
import { SharedFrames } from '../api/http/sse.js';
import { cpuCalibrationMs, machine } from './machine.js';

if (process.argv[2] === '--clients') {
  // The child: N raw connections that each send one GET, then read and drop everything.
  const [port, n] = process.argv.slice(3).map(Number) as [number, number];
  for (let i = 0; i < n; i++) {
    const s = net.connect(port, '127.0.0.1', () => s.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    s.on('data', () => undefined);
  }
  process.send?.('connected');
} else {
  const clients = Number(process.argv[2] ?? 1000);
  const sizes = (process.argv[3] ?? '20000,3000').split(',').map(Number);
  const rounds = Number(process.argv[4] ?? 3);
  const WRITES = 30;

  const responses: ServerResponse[] = [];
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
    res.socket?.setNoDelay(true);
    responses.push(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  const child = fork(new URL(import.meta.url).pathname, ['--clients', String(port), String(clients)], {
    execArgv: ['--import', 'tsx'],
  });
  await new Promise((r) => child.once('message', r));
  while (responses.length < clients) await new Promise((r) => setTimeout(r, 10));

  console.log(JSON.stringify({ bench: 'fanout-floor', clients, machine: machine() }));
  for (let round = 1; round <= rounds; round++)
    for (const bytes of sizes)
      for (const mode of ['res', 'socket'] as const) {
        const calibration = cpuCalibrationMs();
        const body = Buffer.alloc(bytes, 'a');
        const chunk = new SharedFrames(body).chunk; // the server's own framing
        const times: number[] = [];
        for (let i = 0; i < WRITES; i++) {
          const t = performance.now();
          if (mode === 'res') for (const r of responses) r.write(body);
          else for (const r of responses) r.socket!.write(chunk);
          await new Promise((r) => setImmediate(r));
          times.push(performance.now() - t);
          await new Promise((r) => setTimeout(r, 100)); // the clients read it all before the next
        }
        times.sort((a, b) => a - b);
        const q = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))]! * 10) / 10;
        console.log(
          JSON.stringify({ round, mode, bytes, median_ms: q(0.5), p90_ms: q(0.9), cpuCalibrationMs: calibration }),
        );
      }
  child.kill();
  server.closeAllConnections();
  server.close();
}
