// Counters and a histogram whose series are plain numbers, for the per-request metrics of the HTTP edge. A caller
// holds a series once and counts into it with no label lookup: prom-client's labelled children hash their label
// values on every `inc`/`observe`, which cost a response-cache hit about a tenth of its CPU
// (docs/decisions/016-hit-path-tallies.md). The registry reads them as it reads its own metrics (`get`, `reset`), so
// /metrics shows them in the same text format.
import type client from 'prom-client';

type Labels = Record<string, string>;

interface Exported {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

/** What the registry reads of a metric (prom-client's `Registry.metrics`, `getSingleMetric`, `resetMetrics`). */
abstract class Tallied<S> {
  readonly aggregator = 'sum' as const;
  private readonly series = new Map<string, { labels: Labels; s: S }>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    registry: client.Registry,
  ) {
    // The registry's type asks for prom-client's own class; it reads only the members above and below.
    registry.registerMetric(this as unknown as client.Metric<string>);
  }

  abstract readonly type: 'counter' | 'histogram';
  protected abstract fresh(): S;
  protected abstract export(labels: Labels, s: S, out: Exported[]): void;
  protected abstract clear(s: S): void;

  /** The series of these label values (in `labelNames` order), made on first use; hold it and count into it. */
  of(...values: string[]): S {
    const key = values.join('\u0000');
    let e = this.series.get(key);
    if (!e) {
      const labels: Labels = {};
      this.labelNames.forEach((n, i) => {
        labels[n] = values[i] ?? '';
      });
      e = { labels, s: this.fresh() };
      this.series.set(key, e);
    }
    return e.s;
  }

  async get(): Promise<{ name: string; help: string; type: string; aggregator: 'sum'; values: Exported[] }> {
    const values: Exported[] = [];
    for (const { labels, s } of this.series.values()) this.export(labels, s, values);
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** Zero every series; held series stay valid (the registry's `resetMetrics`). */
  reset(): void {
    for (const { s } of this.series.values()) this.clear(s);
  }
}

export class CounterSeries {
  value = 0;
}

export class TallyCounter extends Tallied<CounterSeries> {
  readonly type = 'counter';
  protected fresh(): CounterSeries {
    return new CounterSeries();
  }
  protected export(labels: Labels, s: CounterSeries, out: Exported[]): void {
    out.push({ labels, value: s.value });
  }
  protected clear(s: CounterSeries): void {
    s.value = 0;
  }
}

export class HistogramSeries {
  count = 0;
  sum = 0;
  /** Observations per bucket (not cumulative); the last slot is above the highest bound. */
  readonly counts: number[];

  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(value: number): void {
    this.count++;
    this.sum += value;
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]!) i++;
    this.counts[i]!++;
  }
}

export class TallyHistogram extends Tallied<HistogramSeries> {
  readonly type = 'histogram';
  private readonly bounds: readonly number[];

  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    buckets: readonly number[],
    r: client.Registry,
  ) {
    super(name, help, labelNames, r);
    this.bounds = [...buckets].sort((a, b) => a - b);
  }

  protected fresh(): HistogramSeries {
    return new HistogramSeries(this.bounds);
  }

  protected export(labels: Labels, s: HistogramSeries, out: Exported[]): void {
    let cumulative = 0;
    const bucket = `${this.name}_bucket`;
    this.bounds.forEach((le, i) => {
      cumulative += s.counts[i]!;
      out.push({ metricName: bucket, labels: { le, ...labels }, value: cumulative });
    });
    out.push({ metricName: bucket, labels: { le: '+Inf', ...labels }, value: s.count });
    out.push({ metricName: `${this.name}_sum`, labels, value: s.sum });
    out.push({ metricName: `${this.name}_count`, labels, value: s.count });
  }

  protected clear(s: HistogramSeries): void {
    s.count = 0;
    s.sum = 0;
    s.counts.fill(0);
  }
}
