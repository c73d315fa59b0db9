// Signs and broadcasts Cosmos txs for the devnet accounts of any rollup flavour (minievm, minimove and miniwasm
// all use ethsecp256k1 keys with coin type 60), one sender at a time per account: each account's sequence is
// kept here, so a sender's txs can be broadcast back to back and then awaited together.
import type { Any } from 'cosmjs-types/google/protobuf/any';
import type { DevAccount } from './accounts.js';
import { buildSignedTx, type DigestMode } from './cosmos-tx.js';
import { broadcastSync, fetchAccount, waitForCosmosTx, type CometTx, type NodeEndpoints } from './node-client.js';

/** CheckTx "signature verification failed" (sdk ErrUnauthorized). */
const CODE_UNAUTHORIZED = 4;
const DEFAULT_GAS = 1_000_000;

export interface Included {
  hash: string;
  height: number;
  code: number;
  log: string;
  events: NonNullable<CometTx['tx_result']['events']>;
}

export class CosmosSender {
  private digestMode: DigestMode = 'keccak';
  private readonly accounts = new Map<string, { accountNumber: bigint; sequence: bigint }>();

  constructor(private readonly ep: NodeEndpoints) {}

  /**
   * Signs `messages` as `from` with its next sequence and broadcasts; resolves once CheckTx accepted it, with a
   * promise of its inclusion. A CheckTx rejection throws (the sequence is then re-read from the node).
   */
  async broadcast(
    from: DevAccount,
    messages: Any[],
    opts: { gas?: number; memo?: string } = {},
  ): Promise<{ hash: string; included: Promise<Included> }> {
    let acc = this.accounts.get(from.bech32);
    if (!acc) {
      acc = await fetchAccount(this.ep, from.bech32);
      this.accounts.set(from.bech32, acc);
    }
    const sign = (mode: DigestMode) =>
      buildSignedTx(
        { account: from, chainId: this.ep.chainId, accountNumber: acc.accountNumber, sequence: acc.sequence },
        messages,
        { amount: [], gasLimit: opts.gas ?? DEFAULT_GAS },
        opts.memo ?? '',
        mode,
      );
    let signed = sign(this.digestMode);
    let check = await broadcastSync(this.ep, signed.txBytes);
    // Newer initia key code signs with the EIP-191 prefix; the node is the judge of which one it verifies.
    if (check.code === CODE_UNAUTHORIZED && this.digestMode === 'keccak') {
      this.digestMode = 'keccak-eip191';
      signed = sign(this.digestMode);
      check = await broadcastSync(this.ep, signed.txBytes);
    }
    if (check.code !== 0) {
      this.accounts.delete(from.bech32);
      throw new Error(`CheckTx rejected a tx of ${from.bech32}: code ${check.code} ${check.log}`);
    }
    acc.sequence++;
    const hash = signed.txHash;
    const included = waitForCosmosTx(this.ep, hash, 60_000).then((t) => ({
      hash,
      height: Number(t.height),
      code: t.tx_result.code,
      log: t.tx_result.log ?? '',
      events: t.tx_result.events ?? [],
    }));
    included.catch(() => undefined); // observed by the caller; avoid an early unhandled rejection
    return { hash, included };
  }

  /** broadcast, then wait for inclusion. */
  async send(from: DevAccount, messages: Any[], opts: { gas?: number; memo?: string } = {}): Promise<Included> {
    return (await this.broadcast(from, messages, opts)).included;
  }
}

export interface SentStep {
  label: string;
  hash: string;
  ok: boolean;
  height: number;
}

/**
 * Traffic as labelled steps from devnet accounts (by index), each with the verdict the node must give it: a
 * step whose outcome differs throws, so no check downstream runs on traffic that did not happen.
 */
export class StepTraffic {
  protected readonly sender: CosmosSender;
  readonly sent: SentStep[] = [];

  constructor(
    protected readonly ep: NodeEndpoints,
    readonly accounts: DevAccount[],
  ) {
    this.sender = new CosmosSender(ep);
  }

  protected acct(i: number): DevAccount {
    const a = this.accounts[i];
    if (!a) throw new Error(`no devnet account ${i}`);
    return a;
  }

  /** Sends one step, waits for it and checks the node's verdict against `mustSucceed`. */
  protected async step(label: string, from: number, msgs: Any[], mustSucceed = true, gas?: number): Promise<Included> {
    return this.record(
      label,
      await this.sender.send(this.acct(from), msgs, { memo: `devnet ${label}`, gas }),
      mustSucceed,
    );
  }

  /** Records an included tx (also one broadcast back to back outside step()), checking its verdict. */
  protected record(label: string, r: Included, mustSucceed = true): Included {
    const ok = r.code === 0;
    if (ok !== mustSucceed) throw new Error(`${label} (${r.hash}) ended with code ${r.code}: ${r.log}`);
    this.sent.push({ label, hash: r.hash, ok, height: r.height });
    return r;
  }
}
