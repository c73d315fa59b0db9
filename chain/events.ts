// The chain's event vocabulary, shared by the ingest, the tracking workflows and activities, and the devnet
// tools: SDK 0.50 / CometBFT 0.38 ABCI events (plain-text key/value, exactly as /block_results and the LCD
// return them) and EVM logs (raw hex JSON-RPC form).

/** One attribute of an ABCI event. */
export interface EventAttribute {
  key: string;
  value: string;
  index?: boolean;
}

export interface AbciEvent {
  type: string;
  attributes: EventAttribute[];
}

/** An event's attributes by key (the last value wins when a key repeats). */
export function attrs(event: AbciEvent): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of event.attributes) out[a.key] = a.value;
  return out;
}

/** An EVM log as JSON-RPC serves it (raw hex); the block/tx position fields are absent inside minievm `evm` events. */
export interface EvmLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber?: string;
  blockHash?: string;
  transactionHash?: string;
  transactionIndex?: string;
  logIndex?: string;
  removed?: boolean;
}
