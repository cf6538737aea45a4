/** A tiny Prometheus text-format registry: counters, summaries and histograms with labels. */

type Labels = Readonly<Record<string, string>>;

function escape(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function labelText(labels: Labels, extra: Labels = {}): string {
  const all = { ...labels, ...extra };
  const parts = Object.keys(all)
    .sort()
    .map((k) => `${k}="${escape(all[k] ?? '')}"`);
  return parts.length === 0 ? '' : `{${parts.join(',')}}`;
}

function num(value: number): string {
  return Number.isFinite(value) ? String(value) : value > 0 ? '+Inf' : '-Inf';
}

export interface Metric {
  render(): string;
}

abstract class Family<T> implements Metric {
  protected readonly series = new Map<string, { labels: Labels; value: T }>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly type: string,
  ) {}

  protected at(labels: Labels, create: () => T): T {
    const key = labelText(labels);
    let entry = this.series.get(key);
    if (!entry) {
      entry = { labels, value: create() };
      this.series.set(key, entry);
    }
    return entry.value;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`];
    for (const { labels, value } of this.series.values()) {
      lines.push(...this.lines(labels, value));
    }
    return lines.join('\n');
  }

  protected abstract lines(labels: Labels, value: T): string[];
}

export class Counter extends Family<{ n: number }> {
  constructor(name: string, help: string) {
    super(name, help, 'counter');
  }

  inc(labels: Labels = {}, by = 1): void {
    this.at(labels, () => ({ n: 0 })).n += by;
  }

  value(labels: Labels = {}): number {
    return this.series.get(labelText(labels))?.value.n ?? 0;
  }

  protected lines(labels: Labels, value: { n: number }): string[] {
    return [`${this.name}${labelText(labels)} ${num(value.n)}`];
  }
}

interface Window {
  samples: number[];
  next: number;
  sum: number;
  count: number;
}

/** Quantiles over the most recent `windowSize` observations, plus all-time sum and count. */
export class Summary extends Family<Window> {
  constructor(
    name: string,
    help: string,
    private readonly quantiles: readonly number[] = [0.5, 0.99],
    private readonly windowSize = 1024,
  ) {
    super(name, help, 'summary');
  }

  observe(value: number, labels: Labels = {}): void {
    const w = this.at(labels, () => ({ samples: [], next: 0, sum: 0, count: 0 }));
    if (w.samples.length < this.windowSize) {
      w.samples.push(value);
    } else {
      w.samples[w.next] = value;
      w.next = (w.next + 1) % this.windowSize;
    }
    w.sum += value;
    w.count += 1;
  }

  protected lines(labels: Labels, w: Window): string[] {
    const sorted = [...w.samples].sort((a, b) => a - b);
    const out = this.quantiles.map((q) => {
      const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
      const v = sorted.length === 0 ? Number.NaN : (sorted[index] ?? Number.NaN);
      return `${this.name}${labelText(labels, { quantile: String(q) })} ${Number.isNaN(v) ? 'NaN' : num(v)}`;
    });
    out.push(`${this.name}_sum${labelText(labels)} ${num(w.sum)}`);
    out.push(`${this.name}_count${labelText(labels)} ${w.count}`);
    return out;
  }
}

interface Buckets {
  counts: number[];
  sum: number;
  count: number;
}

export class Histogram extends Family<Buckets> {
  constructor(
    name: string,
    help: string,
    private readonly bounds: readonly number[],
  ) {
    super(name, help, 'histogram');
  }

  observe(value: number, labels: Labels = {}): void {
    const b = this.at(labels, () => ({ counts: this.bounds.map(() => 0), sum: 0, count: 0 }));
    this.bounds.forEach((bound, i) => {
      if (value <= bound) {
        b.counts[i] = (b.counts[i] ?? 0) + 1;
      }
    });
    b.sum += value;
    b.count += 1;
  }

  protected lines(labels: Labels, b: Buckets): string[] {
    const out = this.bounds.map(
      (bound, i) => `${this.name}_bucket${labelText(labels, { le: num(bound) })} ${b.counts[i]}`,
    );
    out.push(`${this.name}_bucket${labelText(labels, { le: '+Inf' })} ${b.count}`);
    out.push(`${this.name}_sum${labelText(labels)} ${num(b.sum)}`);
    out.push(`${this.name}_count${labelText(labels)} ${b.count}`);
    return out;
  }
}

export class MetricsRegistry {
  private readonly metrics: Metric[] = [];

  register<T extends Metric>(metric: T): T {
    this.metrics.push(metric);
    return metric;
  }

  render(): string {
    return `${this.metrics.map((m) => m.render()).join('\n')}\n`;
  }
}
