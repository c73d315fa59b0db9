// IP address text as numbers. Pure; the callers have checked the text with node:net `isIP` first.

/** An IPv4 address as one 32-bit number. */
export function v4Number(a: string): number {
  return a.split('.').reduce((n, o) => n * 256 + Number(o), 0);
}

/** The 8 16-bit groups of an IPv6 address (with an embedded IPv4 tail expanded, a `%zone` dropped). */
export function v6Groups(a: string): number[] {
  let s = a.toLowerCase().split('%')[0]!;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    const n = v4Number(v4[1]!);
    s = `${s.slice(0, -v4[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = s.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail === undefined ? [] : tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : new Array<string>(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((g) => Number.parseInt(g, 16));
}
