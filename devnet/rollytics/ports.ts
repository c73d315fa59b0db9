// Free loopback ports for the devnet node that the differential test and the benchmark start.
import { createServer } from 'node:net';

export async function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** A PORT_BASE whose six derived ports (see devnet/minievm/start.sh) are all free right now. */
export async function freePortBase(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + 100 * Math.floor(Math.random() * 400);
    const free = await Promise.all([17, 45, 46, 56, 57, 90].map((d) => isFree(base + d)));
    if (free.every(Boolean)) return base;
  }
  throw new Error('no free port base found');
}
