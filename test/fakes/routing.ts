import type { ProviderName } from '#app/domain';
import { ProviderFleet, type LiquidityProvider } from '#app/provider';
import { MemoryStore } from '#app/redis';
import {
  LiquidityRouter,
  ProviderCircuits,
  ProviderStats,
  ProviderSwitches,
  type ProviderDay,
  type ProviderMinute,
  type ProviderSettingsRepository,
  type ProviderStatsRepository,
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

/** Routing's stats in memory, and each provider's fidelity as a test sets it. */
export class FakeProviderStats implements Pick<ProviderStatsRepository, 'add' | 'fidelity'> {
  readonly minutes: ProviderMinute[] = [];
  readonly fidelities = new Map<ProviderName, { value: string | null; swaps: number }>();

  add(minutes: readonly ProviderMinute[]): Promise<void> {
    this.minutes.push(...minutes);
    return Promise.resolve();
  }

  fidelity(provider: ProviderName): Promise<{ value: string | null; swaps: number }> {
    return Promise.resolve(this.fidelities.get(provider) ?? { value: null, swaps: 0 });
  }

  /** What the saved minutes add up to for `provider`, as `GET /admin/providers` reads it. */
  total(provider: ProviderName): Pick<ProviderDay, 'quotes' | 'wins' | 'errors' | 'calls'> {
    const mine = this.minutes.filter((m) => m.provider === provider);
    const sum = (field: 'quotes' | 'wins' | 'errors' | 'calls') =>
      mine.reduce((total, m) => total + m[field], 0);
    return { quotes: sum('quotes'), wins: sum('wins'), errors: sum('errors'), calls: sum('calls') };
  }
}

/** A router and the parts a spec looks into. */
export interface TestRouter {
  router: LiquidityRouter;
  settings: FakeProviderSettings;
  stats: FakeProviderStats;
  recorder: ProviderStats;
  circuits: ProviderCircuits;
  store: MemoryStore;
}

/**
 * The real router over `providers` (in `PROVIDERS` order, the same adapters for live and test
 * mode), with its circuits in an in-memory store, its switches and stats in memory, and `now` as
 * its clock.
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
  const circuits = new ProviderCircuits(store, 'replica-1', now);
  const recorder = new ProviderStats(stats, null, now);
  const switches = new ProviderSwitches(settings, now);
  const router = new LiquidityRouter(fleet, switches, circuits, recorder, stats, now);
  return { router, settings, stats, recorder, circuits, store };
}
