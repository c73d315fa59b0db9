// A promise bounded in time without cancelling it: what it gives if it settles within the bound, else a fallback.

/** `p`'s value if it resolves within `ms`, else `fallback` (p keeps running; its timer is always cleared). */
export function valueWithin<T, F>(p: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
