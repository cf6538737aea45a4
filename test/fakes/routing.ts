import type { ProviderName } from '#app/domain';
import { ProviderFleet, type LiquidityProvider } from '#app/provider';
import { MemoryStore } from '#app/redis';
import {
  LATENCY_BOUNDS_MS,
  LiquidityRouter,
  ProviderCircuits,
  ProviderStats,
  ProviderSwitches,
  RoutingObservers,
  type CircuitState,
  type ProviderDay,
  type ProviderMinute,
  type ProviderSettingsRepository,
  type ProviderStatsRepository,
  type RoutingObserver,
} from '#app/routing';

/** Operators' switches in memory: every provider in routing until a test takes one out. */
export class FakeProviderSettings implements Pick<
  ProviderSettingsRepository,
  'disabled' | 'setEnabled'
> {
  readonly off = new Set<ProviderName>();

  disabled(): Promise<ProviderName[]> {
    return Promise.resolve([...this.off]);
  }

  setEnabled(
    provider: ProviderName,
    enabled: boolean,
    configured: readonly ProviderName[],
  ): Promise<boolean> {
    if (!enabled && configured.every((name) => name === provider || this.off.has(name))) {
      return Promise.resolve(false);
    }
    if (enabled) {
      this.off.delete(provider);
    } else {
      this.off.add(provider);
    }
    return Promise.resolve(true);
  }
}

/**
 * Routing's stats in memory, and each provider's fidelity and swaps of the last 24 h (live mode)
 * as a test sets them.
 */
export class FakeProviderStats implements Pick<
  ProviderStatsRepository,
  'add' | 'fidelity' | 'day'
> {
  readonly minutes: ProviderMinute[] = [];
  readonly fidelities = new Map<ProviderName, { value: string | null; swaps: number }>();
  readonly swaps = new Map<ProviderName, number>();

  add(minutes: readonly ProviderMinute[]): Promise<void> {
    this.minutes.push(...minutes);
    return Promise.resolve();
  }

  fidelity(provider: ProviderName): Promise<{ value: string | null; swaps: number }> {
    return Promise.resolve(this.fidelities.get(provider) ?? { value: null, swaps: 0 });
  }

  /** Every saved minute of the provider in the mode, added up (a test's minutes are all recent). */
  async day(provider: ProviderName, livemode: boolean): Promise<ProviderDay> {
    const mine = this.minutes.filter((m) => m.provider === provider && m.livemode === livemode);
    const sum = (field: 'quotes' | 'wins' | 'errors' | 'calls') =>
      mine.reduce((total, m) => total + m[field], 0);
    const buckets = Array.from({ length: LATENCY_BOUNDS_MS.length + 1 }, (_, i) =>
      mine.reduce((total, m) => total + m.latencyBuckets[i], 0),
    );
    return {
      quotes: sum('quotes'),
      wins: sum('wins'),
      errors: sum('errors'),
      calls: sum('calls'),
      latencyBuckets: buckets,
      swaps: livemode ? (this.swaps.get(provider) ?? 0) : 0,
      fidelity: livemode ? (await this.fidelity(provider)).value : null,
    };
  }

  /** What the saved minutes add up to for `provider`, as `GET /admin/providers` reads it. */
  total(provider: ProviderName): Pick<ProviderDay, 'quotes' | 'wins' | 'errors' | 'calls'> {
    const mine = this.minutes.filter((m) => m.provider === provider);
    const sum = (field: 'quotes' | 'wins' | 'errors' | 'calls') =>
      mine.reduce((total, m) => total + m[field], 0);
    return { quotes: sum('quotes'), wins: sum('wins'), errors: sum('errors'), calls: sum('calls') };
  }
}

/** Whatever routing told its watchers, in order. */
export class RecordingObserver implements RoutingObserver {
  readonly wins: [ProviderName, boolean][] = [];
  readonly budgetRefusals: [ProviderName, boolean, 'quote' | 'create'][] = [];
  readonly circuits: [ProviderName, boolean, CircuitState][] = [];

  quoteWon(provider: ProviderName, livemode: boolean): void {
    this.wins.push([provider, livemode]);
  }

  budgetExhausted(provider: ProviderName, livemode: boolean, caller: 'quote' | 'create'): void {
    this.budgetRefusals.push([provider, livemode, caller]);
  }

  circuit(provider: ProviderName, livemode: boolean, state: CircuitState): void {
    this.circuits.push([provider, livemode, state]);
  }
}

/** A router and the parts a spec looks into. */
export interface TestRouter {
  router: LiquidityRouter;
  settings: FakeProviderSettings;
  stats: FakeProviderStats;
  recorder: ProviderStats;
  circuits: ProviderCircuits;
  switches: ProviderSwitches;
  /** What the router, its stats and its circuits told their watchers. */
  observed: RecordingObserver;
  store: MemoryStore;
}

/**
 * The real router over `providers` (in `PROVIDERS` order, the same adapters for live and test
 * mode), with its circuits in an in-memory store, its switches and stats in memory, what it tells
 * its watchers recorded, and `now` as its clock.
 */
export function routerOver(
  providers: readonly LiquidityProvider[],
  now: () => number = Date.now,
): TestRouter {
  const byName = new Map(providers.map((p) => [p.name, p]));
  const fleet = new ProviderFleet(
    providers.map((p) => p.name),
    byName,
    byName,
  );
  const settings = new FakeProviderSettings();
  const stats = new FakeProviderStats();
  const store = new MemoryStore();
  const observers = new RoutingObservers();
  const observed = new RecordingObserver();
  observers.add(observed);
  const circuits = new ProviderCircuits(store, 'replica-1', observers, now);
  const recorder = new ProviderStats(stats, observers, now);
  const switches = new ProviderSwitches(settings, now);
  const router = new LiquidityRouter(fleet, switches, circuits, recorder, stats, now);
  return { router, settings, stats, recorder, circuits, switches, observed, store };
}
