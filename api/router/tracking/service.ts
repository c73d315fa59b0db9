// What the tracking HTTP routes need from durable transfer tracking. tracking/service.ts implements it
// over the ClickHouse projection, the chain directory and the workflow starter; the routes know no more.

/** A chain this deployment tracks. */
export interface TrackedChain {
  /** It has an EVM JSON-RPC, so 0x hashes can be tracked on it. */
  hasEvm: boolean;
  /** It has a CometBFT RPC, so Cosmos tx hashes can be tracked on it. */
  hasCosmos: boolean;
  /** Explorer page of a tx on this chain ('' when the registry has none). */
  explorerLink(txHash: string): string;
}

/** The state and error of a transfer's latest status document. */
export interface TrackedState {
  state: string;
  error?: { type: string; message: string } | null;
}

/** A transfer in an account's history (GET /v2/tx/history). */
export interface HistoryItem {
  chain_id: string;
  tx_hash: string;
  /** Registration time, Unix ms. */
  registeredAtMs: number;
  /** The account's roles in it: `sender`, `receiver`. */
  roles: string[];
  state: string;
  status: string;
}

/** Where a history page starts: after this transfer (newest first). */
export interface HistoryPosition {
  atMs: number;
  chainId: string;
  txHash: string;
}

/** A version of one of an account's transfers (GET /v2/tx/history_stream). */
export interface AccountTransferVersion {
  chainId: string;
  txHash: string;
  /** The account's roles in it. */
  roles: string[];
  version: number;
  /** The status document as served JSON. */
  json: string;
}

export interface TrackingService {
  /** The chain, or undefined when this deployment does not track it. */
  chain(chainId: string): TrackedChain | undefined;
  /** Write the durable registration row (idempotent) and return the transfer's latest state. */
  register(chainId: string, txHash: string, atMs: number): Promise<TrackedState>;
  /**
   * Start (idempotently, asynchronously, with retries) the tracking workflow of a registered tx, with its webhook if
   * it has one. Resolves with the first attempt's outcome: `running`, `ended` (the workflow had already ended), or
   * `retrying`; never rejects.
   */
  startWorkflow(
    chainId: string,
    txHash: string,
    registeredAtMs: number,
    webhook?: string,
  ): Promise<'running' | 'ended' | 'retrying'>;
  /** A track request's webhook URL, normalised, or the reason it is refused (policy, resolution, none configured). */
  checkWebhook?(raw: string): Promise<{ ok: true; value: string } | { ok: false; reason: string }>;
  /**
   * Record the transfer's webhook durably; `conflict` is the other URL it already has, when it has one, and
   * `already` says it had this one (stored by an earlier request, which handed it to the workflow).
   */
  attachWebhook?(
    chainId: string,
    txHash: string,
    url: string,
    atMs: number,
  ): Promise<{ conflict?: string; already?: boolean }>;
  /** The transfer's stored webhook URL, if it has one. */
  webhookOf?(chainId: string, txHash: string): Promise<string | undefined>;
  /** The latest status document as served JSON, or null when the tx was never registered. */
  latestStatusJson(chainId: string, txHash: string): Promise<string | null>;
  /**
   * The latest status document as served JSON when it is in memory (no storage round trip), else undefined.
   * Lets the status route answer the common case before request validation and routing.
   */
  cachedStatusJson?(chainId: string, txHash: string): string | undefined;
  /**
   * The latest status version and document as served JSON, or null when never registered (the status stream's
   * start and its periodic check; answered from memory when held).
   */
  latestStatus?(chainId: string, txHash: string): Promise<{ version: number; json: string } | null>;
  /** Hear of each newer status version (the status stream's push). Returns the unsubscribe. */
  watchStatus?(chainId: string, txHash: string, listener: (v: { version: number; json: string }) => void): () => void;
  /**
   * The transfers of an account (its key: chain/address.ts accountKey) as sender or final receiver, newest
   * registration first, after `after`, at most `limit`.
   */
  history?(address: string, limit: number, after: HistoryPosition | null): Promise<HistoryItem[]>;
  /**
   * Hear of each newer version of the account's transfers this process learns: those passed to followTransfer, and
   * any whose parties it records meanwhile. Returns the unsubscribe.
   */
  watchAccount?(address: string, listener: (t: AccountTransferVersion) => void): () => void;
  /** Count this transfer among the watched account's (its roles in it). */
  followTransfer?(address: string, chainId: string, txHash: string, roles: string[]): void;
  /** Every change reaches watchAccount (one writer); false: other processes write too, so streams also re-read. */
  accountChangesPushed?: boolean;
  /**
   * The unsigned claim of the transfer's claimable OPinit withdrawal, as `/v2/fungible/msgs` answers; throws a
   * routing/ RouteError (not found, nothing to claim, executor unknown / down / no proof yet).
   */
  claimMessages?(chainId: string, txHash: string, signer?: string): Promise<{ txs: unknown[]; msgs: unknown[] }>;
}
