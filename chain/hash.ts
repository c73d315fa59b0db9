// Transaction hash forms of the chains this project reads: Cosmos = 64 hex (uppercase, no 0x);
// EVM = 0x + 64 hex (lowercase).

/** The canonical form of a Cosmos or EVM tx hash; null when malformed. */
export function normaliseTxHash(raw: string): string | null {
  const s = raw.trim();
  if (/^0x[0-9a-fA-F]{64}$/.test(s)) return s.toLowerCase();
  if (/^[0-9a-fA-F]{64}$/.test(s)) return s.toUpperCase();
  return null;
}

export const isEvmHash = (h: string) => h.startsWith('0x');
