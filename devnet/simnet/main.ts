// Run the simnet as its own process (demo, benchmarks). Prints `{"event":"simnet.ready","chains":[…]}` (the
// directory `TRACKING_CHAINS_FILE` / `startTracking({ chains })` take) and optionally writes it to a file.
//   npx tsx devnet/simnet/main.ts [chains.json] [--every-ms 5000]   demo traffic: one transfer of each kind
//   npx tsx devnet/simnet/main.ts --control [--finalization-s 30]   JSON-lines control on stdin/stdout:
//     in:  {"id":1,"op":"ibcTransfer"|"deposit"|"withdraw"|"lzSend"|"failedTx"|"setDelays","args":{…}}
//     out: {"id":1,"result":{"chainId":…,"txHash":…}}   and   {"event":"included","hash":…,"at":<ms>} per tx
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Simnet, SIM } from './index.js';

const out = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);

async function main(): Promise<void> {
  const file = process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : undefined;
  const control = process.argv.includes('--control');
  const i = process.argv.indexOf('--every-ms');
  const every = i > 0 ? Number(process.argv[i + 1]) : 5_000;
  const f = process.argv.indexOf('--finalization-s');
  const net = await Simnet.start({
    delays: { recvMs: 2_000, ackMs: 2_000, depositMs: 3_000, lzMs: 3_000 },
    // The OPinit bridges' finalization period (the L1 bridge config says it; the relayer claims after it).
    finalizationPeriodS: f > 0 ? Number(process.argv[f + 1]) : 30,
  });
  const chains = net.chainInfos();
  if (file) writeFileSync(file, JSON.stringify(chains, null, 2));
  out({ event: 'simnet.ready', chains });
  const stop = async () => {
    await net.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());

  if (control) {
    for (const c of net.chains.values())
      c.onBlock((b) => {
        const at = Date.now();
        for (const t of b.txs)
          out({ event: 'included', hash: t.evm?.receipts[0]?.transactionHash.toLowerCase() ?? t.hash, at });
      });
    const rl = createInterface({ input: process.stdin });
    rl.on('line', (line) => {
      let msg: { id?: unknown; op?: string; args?: Record<string, unknown> };
      try {
        msg = JSON.parse(line) as typeof msg;
      } catch {
        return out({ error: 'not JSON' });
      }
      try {
        const a = (msg.args ?? {}) as never;
        const result =
          msg.op === 'ibcTransfer'
            ? net.ibcTransfer(a)
            : msg.op === 'deposit'
              ? net.deposit(a)
              : msg.op === 'withdraw'
                ? net.withdraw(a)
                : msg.op === 'lzSend'
                  ? net.lzSend(a)
                  : msg.op === 'failedTx'
                    ? net.failedTx()
                    : msg.op === 'setDelays'
                      ? Object.assign(net.relayer.delays, msg.args)
                      : undefined;
        if (result === undefined) throw new Error(`unknown op ${msg.op}`);
        out({ id: msg.id, result });
      } catch (e) {
        out({ id: msg.id, error: (e as Error).message });
      }
    });
    rl.once('close', () => void stop());
    return;
  }

  const kinds = [
    () => net.ibcTransfer({ from: SIM.l1, channel: 'channel-1' }),
    () => net.ibcTransfer({ from: SIM.move, channel: 'channel-0', forward: { channel: 'channel-2' } }),
    () => net.deposit({ l2: SIM.evm }),
    () => net.withdraw({ l2: SIM.move }),
    () => net.lzSend(),
  ];
  let n = 0;
  setInterval(() => {
    const tx = kinds[n++ % kinds.length]!();
    out({ event: 'simnet.transfer', chain_id: tx.chainId, tx_hash: tx.txHash });
  }, every);
}

void main();
