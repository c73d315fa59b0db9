// Run the simnet on its own for the demo: prints (and optionally writes) the chain directory that
// `TRACKING_CHAINS_FILE` / `startTracking({ chains })` take, then sends one transfer of each kind every
// few seconds and prints what to register:  npx tsx devnet/simnet/main.ts [chains.json] [--every-ms 5000]
import { writeFileSync } from 'node:fs';
import { Simnet, SIM } from './index.js';

async function main(): Promise<void> {
  const out = process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : undefined;
  const i = process.argv.indexOf('--every-ms');
  const every = i > 0 ? Number(process.argv[i + 1]) : 5_000;
  const net = await Simnet.start({ delays: { recvMs: 2_000, ackMs: 2_000, depositMs: 3_000, lzMs: 3_000 }, finalizationPeriodS: 30 });
  const chains = net.chainInfos();
  if (out) writeFileSync(out, JSON.stringify(chains, null, 2));
  process.stdout.write(JSON.stringify({ event: 'simnet.ready', chains }) + '\n');
  const kinds = [
    () => net.ibcTransfer({ from: SIM.l1, channel: 'channel-1' }),
    () => net.ibcTransfer({ from: SIM.move, channel: 'channel-0', forward: { channel: 'channel-2' } }),
    () => net.deposit({ l2: SIM.evm }),
    () => net.withdraw({ l2: SIM.move }),
    () => net.lzSend(),
  ];
  let n = 0;
  const timer = setInterval(() => {
    const tx = kinds[n++ % kinds.length]!();
    process.stdout.write(JSON.stringify({ event: 'simnet.transfer', chain_id: tx.chainId, tx_hash: tx.txHash }) + '\n');
  }, every);
  const stop = async () => {
    clearInterval(timer);
    await net.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

void main();
