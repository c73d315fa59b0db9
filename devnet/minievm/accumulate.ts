// A steady stream of ERC20 transfers into a live minievm devnet until it holds a number of txs: the history that
// the real-node backfill benchmarks read back (bench/minievm-backfill.ts, bench/node-tx-reads.ts).
import { type Contract, ContractFactory, type InterfaceAbi, JsonRpcProvider, Wallet } from 'ethers';
import { deriveDevAccounts } from './accounts.js';
import { getContract } from './contracts.js';
import { type NodeEndpoints, sleep, txCount } from './node-client.js';

/**
 * Deploys an ERC20 and sends transfers from `senders` accounts (dev accounts 1..senders; 0 deploys), at most
 * `window` unconfirmed each, until the node holds `target` txs. One sender with a window of one makes about one tx
 * a block; more of either make denser blocks.
 */
export async function accumulateTransfers(
  ep: NodeEndpoints,
  target: number,
  o: { senders: number; window: number },
): Promise<void> {
  const provider = new JsonRpcProvider(ep.evmRpc);
  provider.pollingInterval = 200;
  try {
    const wallets = deriveDevAccounts(o.senders + 1).map((a) => new Wallet(a.privateKey, provider));
    const deployer = wallets[0] as Wallet;
    const { abi, bytecode } = getContract('DevToken');
    // Right after start-up minievm's JSON-RPC answers "jsonrpc is not ready" for a moment: retry the deploy.
    let token: Contract | undefined;
    for (let tries = 0; !token; tries++) {
      try {
        token = (await new ContractFactory(abi as InterfaceAbi, bytecode, deployer).deploy(
          'Backfill',
          'BKFL',
          10n ** 30n,
        )) as Contract;
      } catch (e) {
        const why = `${(e as Error).message} ${JSON.stringify((e as { info?: unknown }).info ?? '')}`;
        if (tries >= 60 || !/not ready/.test(why)) throw e;
        await sleep(1_000);
      }
    }
    await token.waitForDeployment();
    let nonce = (token.deploymentTransaction()?.nonce ?? 0) + 1;
    const senders = wallets.slice(1);
    for (const s of senders)
      await (await token.getFunction('transfer')(s.address, 10n ** 24n, { nonce: nonce++ })).wait();
    // The count is a tx search over every height, which the node answers by walking its whole tx index: asked every
    // 5 s, not after each send (that slowed the generator to about a tx a second past 10,000 txs).
    let done = false;
    const progress = setInterval(async () => {
      const n = await txCount(ep).catch(() => 0);
      process.stderr.write(`accumulated ${n}/${target} txs\n`);
      if (n >= target) done = true;
    }, 5_000);
    await Promise.all(
      senders.map(async (w, i) => {
        const t = token.connect(w) as Contract;
        let n = await provider.getTransactionCount(w.address, 'latest');
        const inflight: Promise<unknown>[] = [];
        while (!done) {
          const to = senders[(i + 1) % senders.length]?.address ?? w.address;
          const tx = await t.getFunction('transfer')(to, 1n, { nonce: n++, gasLimit: 100_000n });
          inflight.push(provider.waitForTransaction(tx.hash, 1, 120_000));
          if (inflight.length >= o.window) await inflight.shift();
        }
        await Promise.allSettled(inflight);
      }),
    );
    clearInterval(progress);
    while ((await txCount(ep)) < target) await sleep(500);
  } finally {
    provider.destroy();
  }
}
