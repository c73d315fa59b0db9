// Traffic generator: executes a traffic plan against a live minievm devnet.
//   EVM txs (deploys, ERC20/ERC721 calls) go through JSON-RPC with ethers;
//   bank sends are Cosmos MsgSend txs signed with the same ethsecp256k1 keys.
// Usage: CHAIN_ID=… COMETBFT_RPC_URL=… COSMOS_REST_URL=… EVM_JSONRPC_URL=… npx tsx devnet/minievm/traffic.ts
import { type Contract, ContractFactory, JsonRpcProvider, Wallet } from 'ethers';
import { deriveDevAccounts, type DevAccount } from './accounts.js';
import { getContract } from './contracts.js';
import { buildSignedTx, msgSendAny, type DigestMode } from './cosmos-tx.js';
import { broadcastSync, endpointsFromEnv, fetchAccount, waitForCosmosTx, type NodeEndpoints } from './node-client.js';
import { DEFAULT_SHAPE, planTraffic, senderOf, type Op, type Plan } from './traffic-plan.js';

export const BASE_DENOM = 'umin';
const EVM_GAS_LIMIT = 3_000_000n;
const COSMOS_GAS_LIMIT = 200_000;
/** CheckTx "signature verification failed" (sdk ErrUnauthorized). */
const CODE_UNAUTHORIZED = 4;

export interface SentTx {
  op: Op;
  /** EVM tx hash (0x…) or Cosmos tx hash (uppercase hex) */
  hash: string;
  vm: 'evm' | 'cosmos';
  ok: boolean;
  height: number;
}

/** Wrapped so `await` on the send does not also wait for inclusion. */
interface Pending {
  included: Promise<void>;
}

export interface TrafficResult {
  erc20Address: string;
  nftAddress: string;
  accounts: DevAccount[];
  sent: SentTx[];
  lastHeight: number;
}

export class TrafficGenerator {
  private readonly provider: JsonRpcProvider;
  private readonly wallets: Wallet[];
  private digestMode: DigestMode = 'keccak';
  private erc20?: Contract;
  private nft?: Contract;
  /** Each sender's next nonce as this generator has used them (see runSender). */
  private readonly nextNonce = new Map<number, number>();
  readonly sent: SentTx[] = [];

  constructor(
    private readonly ep: NodeEndpoints,
    readonly accounts: DevAccount[],
  ) {
    this.provider = new JsonRpcProvider(ep.evmRpc, undefined, { staticNetwork: false, batchMaxCount: 20 });
    this.provider.pollingInterval = 200;
    this.wallets = accounts.map((a) => new Wallet(a.privateKey, this.provider));
  }

  async run(plan: Plan): Promise<TrafficResult> {
    for (const phase of plan.phases) await this.runRound(phase);
    if (!this.erc20 || !this.nft) throw new Error('plan did not deploy both contracts');
    const lastHeight = Math.max(0, ...this.sent.map((s) => s.height));
    return {
      erc20Address: (await this.erc20.getAddress()).toLowerCase(),
      nftAddress: (await this.nft.getAddress()).toLowerCase(),
      accounts: this.accounts,
      sent: this.sent,
      lastHeight,
    };
  }

  /** Senders in parallel; each sender's ops back-to-back with consecutive nonces. */
  private async runRound(round: Op[]): Promise<void> {
    const bySender = new Map<number, Op[]>();
    for (const op of round) bySender.set(senderOf(op), [...(bySender.get(senderOf(op)) ?? []), op]);
    // Deploys must land before calls that need the address, so they are awaited inline.
    await Promise.all([...bySender].map(([sender, ops]) => this.runSender(sender, ops)));
  }

  private async runSender(sender: number, ops: Op[]): Promise<void> {
    const waits: Promise<void>[] = [];
    // minievm shares one counter between the Cosmos sequence and the EVM nonce. The JSON-RPC's count can lag the
    // committed block that a Cosmos tx's inclusion was seen in (a CI run was refused "expected 29, got 27" right after
    // a round), so the count this generator has used itself wins when it is higher.
    const fetched = await this.provider.getTransactionCount(this.wallet(sender).address, 'pending');
    let nonce = Math.max(fetched, this.nextNonce.get(sender) ?? 0);
    for (const op of ops) {
      // Broadcast in nonce order (awaited), wait for inclusion concurrently.
      if (op.kind === 'bank-send' || op.kind === 'bank-overdraft') {
        waits.push((await this.sendBank(op, BigInt(nonce))).included);
      } else if (op.kind === 'erc20-deploy' || op.kind === 'erc721-deploy') {
        await this.deploy(op, nonce);
      } else {
        waits.push((await this.sendCall(op, nonce)).included);
      }
      nonce++;
      this.nextNonce.set(sender, nonce);
    }
    await Promise.all(waits);
  }

  private wallet(i: number): Wallet {
    const w = this.wallets[i];
    if (!w) throw new Error(`no account ${i}`);
    return w;
  }

  private account(i: number): DevAccount {
    const a = this.accounts[i];
    if (!a) throw new Error(`no account ${i}`);
    return a;
  }

  private async deploy(op: Extract<Op, { kind: 'erc20-deploy' | 'erc721-deploy' }>, nonce: number): Promise<void> {
    const name = op.kind === 'erc20-deploy' ? 'DevToken' : 'DevCollection';
    const { abi, bytecode } = getContract(name);
    const factory = new ContractFactory(abi, bytecode, this.wallet(op.from));
    const args = op.kind === 'erc20-deploy' ? ['Devnet Token', 'DEVT', op.supply] : ['Devnet Collection', 'DEVC'];
    const contract = (await factory.deploy(...args, { nonce, gasLimit: EVM_GAS_LIMIT })) as Contract;
    const tx = contract.deploymentTransaction();
    if (!tx) throw new Error('deploy sent no tx');
    const receipt = await tx.wait(1, 60_000);
    if (receipt?.status !== 1) throw new Error(`${name} deploy failed: ${tx.hash}`);
    this.sent.push({ op, hash: tx.hash, vm: 'evm', ok: true, height: receipt.blockNumber });
    if (op.kind === 'erc20-deploy') this.erc20 = contract;
    else this.nft = contract;
  }

  /** Resolves once the node accepted the tx; the returned promise settles on inclusion. */
  private async sendCall(op: Op, nonce: number): Promise<Pending> {
    const from = this.wallet(op.from);
    const overrides = { nonce, gasLimit: EVM_GAS_LIMIT }; // explicit gas: the overdraft must reach the chain
    const token = () => this.erc20?.connect(from) as Contract;
    const nft = () => this.nft?.connect(from) as Contract;
    let txHash: string;
    switch (op.kind) {
      case 'erc20-transfer':
      case 'erc20-overdraft':
        txHash = (await token().getFunction('transfer')(this.account(op.to).evmAddress, op.amount, overrides)).hash;
        break;
      case 'erc721-mint':
        txHash = (
          await nft().getFunction('mint')(
            this.account(op.to).evmAddress,
            op.tokenId,
            `ipfs://devnet/${op.tokenId}`,
            overrides,
          )
        ).hash;
        break;
      case 'erc721-transfer':
        txHash = (
          await nft().getFunction('transferFrom')(from.address, this.account(op.to).evmAddress, op.tokenId, overrides)
        ).hash;
        break;
      case 'erc721-burn':
        txHash = (await nft().getFunction('burn')(op.tokenId, overrides)).hash;
        break;
      default:
        throw new Error(`not an EVM call: ${op.kind}`);
    }
    const included = (async () => {
      const receipt = await this.provider.waitForTransaction(txHash, 1, 60_000);
      if (!receipt) throw new Error(`no receipt for ${txHash}`);
      const ok = receipt.status === 1;
      if (ok === (op.kind === 'erc20-overdraft'))
        throw new Error(`${op.kind} ${txHash} ended with status ${receipt.status}`);
      this.sent.push({ op, hash: txHash, vm: 'evm', ok, height: receipt.blockNumber });
    })();
    included.catch(() => undefined); // observed later by Promise.all; avoid an early unhandled rejection
    return { included };
  }

  private async sendBank(
    op: Extract<Op, { kind: 'bank-send' | 'bank-overdraft' }>,
    sequence: bigint,
  ): Promise<Pending> {
    const from = this.account(op.from);
    const { accountNumber } = await fetchAccount(this.ep, from.bech32);
    const sign = (mode: DigestMode) =>
      buildSignedTx(
        { account: from, chainId: this.ep.chainId, accountNumber, sequence },
        [msgSendAny(from.bech32, this.account(op.to).bech32, [{ denom: BASE_DENOM, amount: op.amount.toString() }])],
        { amount: [], gasLimit: COSMOS_GAS_LIMIT },
        `devnet ${op.kind}`,
        mode,
      );
    let signed = sign(this.digestMode);
    let check = await broadcastSync(this.ep, signed.txBytes);
    if (check.code === CODE_UNAUTHORIZED && this.digestMode === 'keccak') {
      // See DigestMode: let the node decide which digest its verifier expects.
      this.digestMode = 'keccak-eip191';
      signed = sign(this.digestMode);
      check = await broadcastSync(this.ep, signed.txBytes);
    }
    if (check.code !== 0) throw new Error(`CheckTx rejected ${op.kind}: code ${check.code} ${check.log}`);
    const hash = signed.txHash;
    const included = (async () => {
      const committed = await waitForCosmosTx(this.ep, hash);
      const ok = committed.tx_result.code === 0;
      if (ok === (op.kind === 'bank-overdraft'))
        throw new Error(`${op.kind} ${hash} ended with code ${committed.tx_result.code}`);
      this.sent.push({ op, hash, vm: 'cosmos', ok, height: Number(committed.height) });
    })();
    included.catch(() => undefined); // observed later by Promise.all; avoid an early unhandled rejection
    return { included };
  }

  destroy(): void {
    this.provider.destroy();
  }
}

export async function runTraffic(ep: NodeEndpoints, plan: Plan = planTraffic(DEFAULT_SHAPE)): Promise<TrafficResult> {
  const gen = new TrafficGenerator(ep, deriveDevAccounts(plan.shape.accounts));
  try {
    return await gen.run(plan);
  } finally {
    gen.destroy();
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const result = await runTraffic(endpointsFromEnv());
  const summary = {
    erc20: result.erc20Address,
    nft: result.nftAddress,
    txs: result.sent.length,
    failed: result.sent.filter((s) => !s.ok).map((s) => ({ kind: s.op.kind, hash: s.hash })),
    lastHeight: result.lastHeight,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}
