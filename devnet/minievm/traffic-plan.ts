// Deterministic traffic plan and the chain state it must produce.
//
// The generator executes a plan; the e2e checks compare the indexer with the
// node. Keeping the plan and its expected end state pure lets us unit-test the
// workload itself (no overdrafts except the one intended failure, burns only
// of live tokens) without a node, and lets the e2e test also assert that the
// node ended where the model says.

export interface TrafficShape {
  /** accounts taking part (index 0 deploys and mints) */
  accounts: number;
  bankSends: number;
  erc20Transfers: number;
  nftMints: number;
  nftTransfers: number;
  nftBurns: number;
  seed: number;
}

export const DEFAULT_SHAPE: TrafficShape = {
  accounts: 12,
  bankSends: 12,
  erc20Transfers: 40,
  nftMints: 12,
  nftTransfers: 10,
  nftBurns: 3,
  seed: 6,
};

export const LIMITS = { accounts: 200, opsPerKind: 5000 } as const;

export const ERC20_SUPPLY = 10n ** 24n; // 1e6 tokens with 18 decimals
export const BANK_AMOUNT_UNIT = 1_000n;

export type Op =
  | { kind: 'bank-send'; from: number; to: number; amount: bigint }
  | { kind: 'erc20-deploy'; from: 0; supply: bigint }
  | { kind: 'erc20-transfer'; from: number; to: number; amount: bigint }
  | { kind: 'erc721-deploy'; from: 0 }
  | { kind: 'erc721-mint'; from: 0; to: number; tokenId: bigint }
  | { kind: 'erc721-transfer'; from: number; to: number; tokenId: bigint }
  | { kind: 'erc721-burn'; from: number; tokenId: bigint }
  /** an ERC20 transfer above the sender's balance: included on chain, reverted */
  | { kind: 'erc20-overdraft'; from: number; to: number; amount: bigint }
  /** a bank send above the sender's balance: passes CheckTx, fails in DeliverTx */
  | { kind: 'bank-overdraft'; from: number; to: number; amount: bigint };

/** Phases run one after another; inside a phase senders run in parallel, each sender's ops in order. */
export interface Plan {
  shape: TrafficShape;
  phases: Op[][];
}

export interface ExpectedState {
  erc20: Map<number, bigint>;
  /** tokenId (decimal) → owner account index */
  nftOwners: Map<string, number>;
  burned: Set<string>;
  nftSupply: bigint;
  failedOps: number;
}

/** mulberry32: tiny deterministic PRNG, so a seed reproduces a run exactly. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function checkShape(s: TrafficShape): void {
  if (!Number.isInteger(s.accounts) || s.accounts < 2 || s.accounts > LIMITS.accounts) {
    throw new Error(`accounts must be an integer in [2, ${LIMITS.accounts}]`);
  }
  for (const k of ['bankSends', 'erc20Transfers', 'nftMints', 'nftTransfers', 'nftBurns'] as const) {
    if (!Number.isInteger(s[k]) || s[k] < 0 || s[k] > LIMITS.opsPerKind) {
      throw new Error(`${k} must be an integer in [0, ${LIMITS.opsPerKind}]`);
    }
  }
  if (s.nftBurns > s.nftMints) throw new Error('cannot burn more NFTs than are minted');
}

export function planTraffic(shape: TrafficShape = DEFAULT_SHAPE): Plan {
  checkShape(shape);
  const rand = rng(shape.seed);
  const pick = (n: number) => Math.floor(rand() * n);
  const other = (n: number, not: number) => (not + 1 + pick(n - 1)) % n;
  const n = shape.accounts;

  const bank: Op[] = [];
  for (let i = 0; i < shape.bankSends; i++) {
    const from = i % n;
    bank.push({ kind: 'bank-send', from, to: other(n, from), amount: BANK_AMOUNT_UNIT * BigInt(1 + pick(50)) });
  }
  // Genesis funds are far above any planned amount, so only this one overdraws.
  bank.push({ kind: 'bank-overdraft', from: n - 1, to: 0, amount: 10n ** 40n });

  const deploy: Op[] = [
    { kind: 'erc20-deploy', from: 0, supply: ERC20_SUPPLY },
    { kind: 'erc721-deploy', from: 0 },
  ];

  // ERC20: first spread tokens from the deployer, then random transfers that
  // never exceed the sender's modelled balance.
  const bal = new Map<number, bigint>([[0, ERC20_SUPPLY]]);
  const erc20Seed: Op[] = [];
  for (let to = 1; to < n; to++) {
    const amount = ERC20_SUPPLY / BigInt(4 * n) + BigInt(to) * 10n ** 15n;
    erc20Seed.push({ kind: 'erc20-transfer', from: 0, to, amount });
    bal.set(0, (bal.get(0) ?? 0n) - amount);
    bal.set(to, amount);
  }
  const erc20Mix: Op[] = [];
  for (let i = 0; i < shape.erc20Transfers; i++) {
    const from = 1 + pick(n - 1);
    const have = bal.get(from) ?? 0n;
    if (have === 0n) continue;
    const to = other(n, from);
    const amount = i % 7 === 6 ? have : (have * BigInt(1 + pick(40))) / 100n; // sometimes empty an account
    if (amount === 0n) continue;
    erc20Mix.push({ kind: 'erc20-transfer', from, to, amount });
    bal.set(from, have - amount);
    bal.set(to, (bal.get(to) ?? 0n) + amount);
  }
  const overdraftFrom = 1 + pick(n - 1);
  erc20Mix.push({ kind: 'erc20-overdraft', from: overdraftFrom, to: 0, amount: (bal.get(overdraftFrom) ?? 0n) + 1n });

  // ERC721: mint, transfer by current owners, burn some.
  const owners = new Map<string, number>();
  const mints: Op[] = [];
  for (let i = 0; i < shape.nftMints; i++) {
    const tokenId = BigInt(1 + i);
    const to = pick(n);
    mints.push({ kind: 'erc721-mint', from: 0, to, tokenId });
    owners.set(tokenId.toString(), to);
  }
  const moves: Op[] = [];
  const ids = [...owners.keys()];
  for (let i = 0; i < shape.nftTransfers && ids.length > 0; i++) {
    const id = ids[pick(ids.length)] as string;
    const from = owners.get(id) as number;
    const to = other(n, from);
    moves.push({ kind: 'erc721-transfer', from, to, tokenId: BigInt(id) });
    owners.set(id, to);
  }
  const burns: Op[] = [];
  for (let i = 0; i < shape.nftBurns; i++) {
    const id = ids[i] as string; // lowest ids: deterministic, each burned once
    burns.push({ kind: 'erc721-burn', from: owners.get(id) as number, tokenId: BigInt(id) });
  }

  const phases = [bank, deploy, ...toRounds([...erc20Seed, ...erc20Mix]), ...toRounds([...mints, ...moves, ...burns])];
  return { shape, phases: phases.filter((p) => p.length > 0) };
}

export function senderOf(op: Op): number {
  return op.from;
}

/** State an op reads or writes: account ERC20 balances and NFT token ownership. */
function stateKeys(op: Op): string[] {
  switch (op.kind) {
    case 'erc20-transfer':
    case 'erc20-overdraft':
      return [`acct:${op.from}`, `acct:${op.to}`];
    case 'erc721-mint':
    case 'erc721-transfer':
    case 'erc721-burn':
      return [`nft:${op.tokenId}`];
    default:
      return [];
  }
}

/**
 * Splits ops into rounds that the executor can send at once. Txs of one
 * sender keep their order through consecutive nonces, so they may share a
 * round; an op that touches state an earlier op of ANOTHER sender wrote must
 * wait for a later round, or it could execute first and revert.
 */
export function toRounds(ops: Op[]): Op[][] {
  const rounds: Op[][] = [];
  const lastTouch = new Map<string, { round: number; sender: number }>();
  const lastOfSender = new Map<number, number>();
  for (const op of ops) {
    let round = lastOfSender.get(senderOf(op)) ?? 0;
    for (const key of stateKeys(op)) {
      const t = lastTouch.get(key);
      if (t) round = Math.max(round, t.sender === senderOf(op) ? t.round : t.round + 1);
    }
    (rounds[round] ??= []).push(op);
    lastOfSender.set(senderOf(op), round);
    for (const key of stateKeys(op)) lastTouch.set(key, { round, sender: senderOf(op) });
  }
  return rounds;
}

/** Replays a plan on a model of the contracts; throws if an op would be invalid. */
export function expectedState(plan: Plan): ExpectedState {
  const erc20 = new Map<number, bigint>();
  const nftOwners = new Map<string, number>();
  const burned = new Set<string>();
  let failedOps = 0;
  for (const op of plan.phases.flat()) {
    switch (op.kind) {
      case 'erc20-deploy':
        erc20.set(op.from, op.supply);
        break;
      case 'erc20-transfer': {
        const have = erc20.get(op.from) ?? 0n;
        if (op.amount > have) throw new Error(`plan overdraws account ${op.from}`);
        erc20.set(op.from, have - op.amount);
        erc20.set(op.to, (erc20.get(op.to) ?? 0n) + op.amount);
        break;
      }
      case 'erc20-overdraft':
        if (op.amount <= (erc20.get(op.from) ?? 0n)) throw new Error('overdraft op would succeed');
        failedOps++;
        break;
      case 'bank-overdraft':
        failedOps++;
        break;
      case 'erc721-mint':
        if (nftOwners.has(op.tokenId.toString()) || burned.has(op.tokenId.toString())) throw new Error('double mint');
        nftOwners.set(op.tokenId.toString(), op.to);
        break;
      case 'erc721-transfer':
        if (nftOwners.get(op.tokenId.toString()) !== op.from)
          throw new Error(`token ${op.tokenId} not owned by ${op.from}`);
        nftOwners.set(op.tokenId.toString(), op.to);
        break;
      case 'erc721-burn':
        if (nftOwners.get(op.tokenId.toString()) !== op.from) throw new Error(`burn by non-owner of ${op.tokenId}`);
        nftOwners.delete(op.tokenId.toString());
        burned.add(op.tokenId.toString());
        break;
      case 'bank-send':
      case 'erc721-deploy':
        break;
    }
  }
  return { erc20, nftOwners, burned, nftSupply: BigInt(nftOwners.size), failedOps };
}
