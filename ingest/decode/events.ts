// Event helpers: attribute access, EVM logs carried in minievm `evm` events, and the account ↔ tx links
// of docs/indexer.md.
import { normalizeAccount, topicAddress } from '../../chain/address.js';

import type { AbciEvent, EvmLog } from '../../chain/events.js';

/**
 * The EVM logs inside a minievm `evm` event (`log` attribute, JSON `{address, topics, data}`). minievm emits
 * one event per log; an event carrying several `log` attributes is read in attribute order too.
 */
export function evmLogsOf(event: AbciEvent): EvmLog[] {
  if (event.type !== 'evm') return [];
  const out: EvmLog[] = [];
  for (const a of event.attributes) {
    if (a.key !== 'log' || !a.value) continue;
    const parsed = JSON.parse(a.value) as Partial<EvmLog>;
    if (typeof parsed.address !== 'string' || !Array.isArray(parsed.topics))
      throw new Error('evm log without address/topics');
    out.push({
      address: parsed.address.toLowerCase(),
      topics: parsed.topics.map((t) => String(t).toLowerCase()),
      data: (parsed.data ?? '0x').toLowerCase(),
    });
  }
  return out;
}

const BECH32_RE = /^init1(?:[a-z0-9]{38}|[a-z0-9]{58})$/;
const HEX_ANCHORED_RE = /^0x[a-fA-F0-9]{1,64}$/;
const HEX_ANYWHERE_RE = /0x[a-fA-F0-9]{1,64}/g;

/**
 * Accounts a tx touches: the signer plus every address-looking attribute value (split on ','), every hex
 * inside Move `data` JSON, and for `evm` logs the contract address and address-shaped topics. All bech32.
 */
export function accountsTouched(events: readonly AbciEvent[], signer: string, prefix = 'init'): string[] {
  const found = new Set<string>();
  const add = (v: string) => {
    const n = normalizeAccount(v, prefix);
    if (n) found.add(n);
  };
  if (signer) found.add(signer);
  const bech32Re = prefix === 'init' ? BECH32_RE : new RegExp(`^${prefix}1(?:[a-z0-9]{38}|[a-z0-9]{58})$`);
  for (const ev of events) {
    for (const a of ev.attributes) {
      if (ev.type === 'evm' && a.key === 'log') {
        const log = evmLogsOf({ type: ev.type, attributes: [a] })[0];
        if (log) {
          add(log.address);
          for (const t of log.topics.slice(1)) {
            const addr = topicAddress(t);
            if (addr) add(addr);
          }
        }
        continue;
      }
      if (ev.type === 'call' && a.key === 'ret') continue;
      if (ev.type === 'move' && a.key === 'data') {
        for (const m of a.value.matchAll(HEX_ANYWHERE_RE)) add(m[0]);
        continue;
      }
      for (const part of a.value.split(',')) {
        const p = part.trim();
        if (bech32Re.test(p) || HEX_ANCHORED_RE.test(p)) add(p);
      }
    }
  }
  return [...found];
}
