// Block time handling with nanosecond precision (JS Date keeps only milliseconds).
export interface ChainTime {
  /** RFC 3339 with the fraction as Go's RFC3339Nano prints it (trailing zeros dropped), UTC: tx timestamps. */
  rfc3339Nano: string;
  /** RFC 3339 without fraction: block timestamps. */
  rfc3339Seconds: string;
  /** ClickHouse DateTime64(9) literal. */
  clickhouse: string;
  /** Nanoseconds since the epoch. */
  nanos: bigint;
}

const RFC3339_RE = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

export function parseChainTime(value: string): ChainTime {
  const m = RFC3339_RE.exec(value);
  if (!m) throw new Error(`invalid block time ${JSON.stringify(value).slice(0, 64)}`);
  const [, date, clock, frac = '', zone] = m;
  let seconds = Math.floor(Date.parse(`${date}T${clock}${zone}`) / 1000);
  if (!Number.isFinite(seconds)) throw new Error(`invalid block time ${value.slice(0, 64)}`);
  const nanosFrac = frac.padEnd(9, '0');
  const utc = new Date(seconds * 1000).toISOString().slice(0, 19);
  seconds = Math.floor(seconds);
  const trimmed = nanosFrac.replace(/0+$/, '');
  return {
    rfc3339Nano: `${utc}${trimmed ? `.${trimmed}` : ''}Z`,
    rfc3339Seconds: `${utc}Z`,
    clickhouse: `${utc.replace('T', ' ')}.${nanosFrac}`,
    nanos: BigInt(seconds) * 1_000_000_000n + BigInt(nanosFrac),
  };
}
