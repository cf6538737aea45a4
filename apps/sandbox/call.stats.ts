import type { ProviderName } from '#app/domain';

export interface SecondBucket {
  /** Unix second. */
  second: number;
  calls: number;
  methods: Record<string, number>;
}

/** One provider's counts; later suites assert upstream budgets with them. */
export interface CallStatsSnapshot {
  totalCalls: number;
  calls: Record<string, number>;
  getTransactions: {
    /** Calls by id. */
    calls: number;
    idsRequested: number;
    maxIdsPerCall: number;
    idsPerCall: number[];
    /** The offset of every listing call (one that asks for no ids), in order. */
    listingOffsets: number[];
  };
  perSecond: SecondBucket[];
  /** The most calls in one wall-clock second. */
  maxCallsPerSecond: number;
  /** The most calls in any 1000 ms window, wherever it starts: the stricter count. */
  maxCallsInAnyWindow: number;
  faultsServed: number;
  rejected: { unauthorized: number; malformed: number };
}

/** A provider's counts under `providers` in `GET /sandbox/stats`. */
export type ProviderCallStats = Omit<CallStatsSnapshot, 'getTransactions' | 'perSecond'>;

/**
 * What `GET /sandbox/stats` answers: Changelly's counts at the top, as before ChangeNOW joined,
 * and each provider's under `providers`.
 */
export interface SandboxStats extends CallStatsSnapshot {
  providers: Record<ProviderName, ProviderCallStats>;
}

const WINDOW_MS = 1000;

/** Counts every authenticated call by method, by wall-clock second and in a sliding window. */
export class CallStats {
  private stats = CallStats.empty();
  private readonly seconds = new Map<number, SecondBucket>();
  /** Times of the calls of the last `WINDOW_MS`, oldest first. */
  private readonly recent: number[] = [];

  private static empty(): CallStatsSnapshot {
    return {
      totalCalls: 0,
      calls: {},
      getTransactions: {
        calls: 0,
        idsRequested: 0,
        maxIdsPerCall: 0,
        idsPerCall: [],
        listingOffsets: [],
      },
      perSecond: [],
      maxCallsPerSecond: 0,
      maxCallsInAnyWindow: 0,
      faultsServed: 0,
      rejected: { unauthorized: 0, malformed: 0 },
    };
  }

  /** `idsCount` and `listingOffset` describe a getTransactions call by id or a listing one. */
  record(
    method: string,
    now: number,
    {
      idsCount = null,
      listingOffset = null,
    }: { idsCount?: number | null; listingOffset?: number | null } = {},
  ): void {
    this.stats.totalCalls += 1;
    this.stats.calls[method] = (this.stats.calls[method] ?? 0) + 1;
    if (listingOffset !== null) {
      this.stats.getTransactions.listingOffsets.push(listingOffset);
    }
    if (idsCount !== null) {
      const gt = this.stats.getTransactions;
      gt.calls += 1;
      gt.idsRequested += idsCount;
      gt.maxIdsPerCall = Math.max(gt.maxIdsPerCall, idsCount);
      gt.idsPerCall.push(idsCount);
    }
    const second = Math.floor(now / 1000);
    const bucket = this.seconds.get(second) ?? { second, calls: 0, methods: {} };
    bucket.calls += 1;
    bucket.methods[method] = (bucket.methods[method] ?? 0) + 1;
    this.seconds.set(second, bucket);
    this.stats.maxCallsPerSecond = Math.max(this.stats.maxCallsPerSecond, bucket.calls);
    // Every window holding the most calls can be slid to end at one of them: checking the
    // window that ends at each call finds the maximum.
    this.recent.push(now);
    while (this.recent[0] <= now - WINDOW_MS) {
      this.recent.shift();
    }
    this.stats.maxCallsInAnyWindow = Math.max(this.stats.maxCallsInAnyWindow, this.recent.length);
  }

  fault(): void {
    this.stats.faultsServed += 1;
  }

  rejected(kind: 'unauthorized' | 'malformed'): void {
    this.stats.rejected[kind] += 1;
  }

  reset(): void {
    this.stats = CallStats.empty();
    this.seconds.clear();
    this.recent.length = 0;
  }

  /** The counts every provider has, without Changelly's listing details. */
  summary(): ProviderCallStats {
    const { totalCalls, calls, maxCallsPerSecond, maxCallsInAnyWindow, faultsServed, rejected } =
      this.snapshot();
    return { totalCalls, calls, maxCallsPerSecond, maxCallsInAnyWindow, faultsServed, rejected };
  }

  snapshot(): CallStatsSnapshot {
    const copy = structuredClone(this.stats);
    copy.perSecond = [...this.seconds.values()]
      .sort((a, b) => a.second - b.second)
      .map((b) => structuredClone(b));
    return copy;
  }
}
