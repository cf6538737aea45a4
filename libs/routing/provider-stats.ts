import { Logger } from '@nestjs/common';
import type { ProviderName } from '#app/domain';
import type { CircuitState } from './provider-circuits.js';
import {
  LATENCY_BOUNDS_MS,
  type ProviderMinute,
  type ProviderStatsRepository,
} from './provider-stats.repository.js';

/** How often a replica adds what it counted to the shared totals. */
export const STATS_FLUSH_MS = 10_000;

/**
 * What routing tells whoever watches it (the api's metrics), each in the mode it happened in:
 * a provider's quote won, a quote or create call our own budget refused before it left (it never
 * reached the provider, so the stats do not count it as a call), a circuit read or changed.
 */
export interface RoutingObserver {
  quoteWon(provider: ProviderName, livemode: boolean): void;
  budgetExhausted(provider: ProviderName, livemode: boolean, caller: 'quote' | 'create'): void;
  circuit(provider: ProviderName, livemode: boolean, state: CircuitState): void;
}

/**
 * This replica's counts of each provider's quotes, wins, failed calls and latencies, per minute,
 * added to Postgres every 10 s (and on shutdown), so `GET /admin/providers` shows every replica's
 * last 24 hours. A flush that fails keeps its counts for the next.
 */
export class ProviderStats {
  private readonly logger = new Logger(ProviderStats.name);
  private pending = new Map<string, ProviderMinute>();

  constructor(
    private readonly repository: Pick<ProviderStatsRepository, 'add'>,
    private readonly observer: Pick<RoutingObserver, 'quoteWon' | 'budgetExhausted'> | null = null,
    private readonly now: () => number = Date.now,
  ) {}

  /** One provider asked for a quote, and how it went. */
  quoted(provider: ProviderName, livemode: boolean, latencyMs: number, failed: boolean): void {
    const minute = this.minute(provider, livemode);
    minute.quotes += 1;
    this.called(minute, latencyMs, failed);
  }

  won(provider: ProviderName, livemode: boolean): void {
    this.minute(provider, livemode).wins += 1;
    this.observer?.quoteWon(provider, livemode);
  }

  /** One create call, and how it went. */
  created(provider: ProviderName, livemode: boolean, latencyMs: number, failed: boolean): void {
    this.called(this.minute(provider, livemode), latencyMs, failed);
  }

  /** A quote or create call that our budget for the provider refused before it left. */
  budgetExhausted(provider: ProviderName, livemode: boolean, caller: 'quote' | 'create'): void {
    this.observer?.budgetExhausted(provider, livemode, caller);
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) {
      return;
    }
    const taken = this.pending;
    this.pending = new Map();
    try {
      await this.repository.add([...taken.values()]);
    } catch (error: unknown) {
      for (const [key, minute] of taken) {
        this.merge(key, minute);
      }
      this.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'provider stats not saved; kept for the next flush',
      );
    }
  }

  private called(minute: ProviderMinute, latencyMs: number, failed: boolean): void {
    minute.calls += 1;
    if (failed) {
      minute.errors += 1;
    }
    const bucket = LATENCY_BOUNDS_MS.findIndex((bound) => latencyMs <= bound);
    minute.latencyBuckets[bucket === -1 ? LATENCY_BOUNDS_MS.length : bucket] += 1;
  }

  private minute(provider: ProviderName, livemode: boolean): ProviderMinute {
    const start = Math.floor(this.now() / 60_000) * 60_000;
    const key = `${provider}:${livemode}:${start}`;
    let minute = this.pending.get(key);
    if (!minute) {
      minute = {
        provider,
        livemode,
        minute: new Date(start),
        quotes: 0,
        wins: 0,
        errors: 0,
        calls: 0,
        latencyBuckets: Array.from({ length: LATENCY_BOUNDS_MS.length + 1 }, () => 0),
      };
      this.pending.set(key, minute);
    }
    return minute;
  }

  private merge(key: string, minute: ProviderMinute): void {
    const current = this.pending.get(key);
    if (!current) {
      this.pending.set(key, minute);
      return;
    }
    current.quotes += minute.quotes;
    current.wins += minute.wins;
    current.errors += minute.errors;
    current.calls += minute.calls;
    current.latencyBuckets = current.latencyBuckets.map((n, i) => n + minute.latencyBuckets[i]);
  }
}

/** What the median of the slowest bucket reads as: twice its lower bound. */
const SLOWEST_MS = LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1] * 2;

/** The median latency from bucket counts: the upper bound of the bucket holding it. */
export function medianLatencyMs(buckets: readonly number[]): number | null {
  const total = buckets.reduce((sum, n) => sum + n, 0);
  if (total === 0) {
    return null;
  }
  let seen = 0;
  for (const [i, n] of buckets.entries()) {
    seen += n;
    if (seen * 2 >= total) {
      return i < LATENCY_BOUNDS_MS.length ? LATENCY_BOUNDS_MS[i] : SLOWEST_MS;
    }
  }
  return null;
}
