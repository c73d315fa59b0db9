// The clients of bench/status-stream-cost.ts, in their own process: one per transfer, either a status stream
// (kept open, events read and dropped) or a poller of GET /v2/tx/status every second (as @skip-go/client polls).
// Prints one line once every client has connected (or made its first poll), then runs until killed.
//   npx tsx bench/status-clients.ts stream|poll <base> <chainId> <hash>...
import { request } from 'node:http';

const [mode, base, chainId, ...hashes] = process.argv.slice(2) as [string, string, string, ...string[]];
const q = (h: string) => `chain_id=${encodeURIComponent(chainId)}&tx_hash=${h}`;

function stream(h: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/v2/tx/status_stream?${q(h)}`, { headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`stream ${res.statusCode}`));
      res.on('data', () => undefined);
      res.once('data', () => resolve());
    });
    req.on('error', reject);
    req.end();
  });
}

async function poll(h: string): Promise<void> {
  const once = async () => {
    const r = await fetch(`${base}/v2/tx/status?${q(h)}`);
    if (r.status !== 200) throw new Error(`status ${r.status}`);
    await r.arrayBuffer();
  };
  await once();
  // each poller on its own 1 s clock, started at a random phase (as independent clients are)
  setTimeout(() => setInterval(() => void once().catch(() => undefined), 1000), Math.random() * 1000);
}

await Promise.all(hashes.map((h) => (mode === 'stream' ? stream(h) : poll(h))));
process.stdout.write('connected\n');
process.on('SIGTERM', () => process.exit(0));
