import { requireSetting, type AppSettings } from '#app/config';
import type { ProviderName } from '#app/domain';
import type { UpstreamGates } from '#app/rate-limit';
import type { KeyValueStore } from '#app/redis';
import { ChangellyAdapter } from './changelly.adapter.js';
import { ChangeNowAdapter } from './changenow.adapter.js';
import type { LiquidityProvider } from './liquidity-provider.js';
import { ProviderFleet } from './provider-fleet.js';
import type { UpstreamCallEvent } from './upstream-call.runner.js';

/**
 * Each provider's cap on calls per second, across every api replica and poller (docs/decisions.md,
 * "Liquidity routing across providers").
 */
export const PROVIDER_CAPS: Record<ProviderName, number> = { changelly: 10, changenow: 30 };

/** What every adapter a process builds shares: the cache, the budgets, the call listener. */
export interface AdapterDependencies {
  cache: KeyValueStore;
  gates: UpstreamGates;
  onCall: (event: UpstreamCallEvent) => void;
}

/**
 * The live and the test adapter of provider `name` (test only where the settings give it a test
 * endpoint), from the process's settings: a provider the settings do not configure stops the
 * process at boot, naming it. Each provider and mode spends its own budget; caches are kept per
 * endpoint in the shared store.
 */
export function createAdapters(
  name: ProviderName,
  settings: AppSettings,
  deps: AdapterDependencies,
): { live: LiquidityProvider; test: LiquidityProvider | null } {
  const common = (mode: 'live' | 'test') => ({
    cache: deps.cache,
    gate: deps.gates.forBudget(`${name}:${mode}`, PROVIDER_CAPS[name]),
    onCall: deps.onCall,
  });
  switch (name) {
    case 'changelly': {
      const test = settings.testProvider;
      return {
        live: new ChangellyAdapter(requireSetting(settings, 'provider'), common('live')),
        test: test ? new ChangellyAdapter(test, common('test')) : null,
      };
    }
    case 'changenow': {
      const test = settings.testChangenow;
      return {
        live: new ChangeNowAdapter(requireSetting(settings, 'changenow'), common('live')),
        test: test ? new ChangeNowAdapter(test, common('test')) : null,
      };
    }
  }
}

/** The adapters of every provider `PROVIDERS` names, per mode, in its order. */
export function createProviderFleet(
  settings: AppSettings,
  deps: AdapterDependencies,
): ProviderFleet {
  const names = requireSetting(settings, 'providers');
  const live = new Map<ProviderName, LiquidityProvider>();
  const test = new Map<ProviderName, LiquidityProvider>();
  for (const name of names) {
    const adapters = createAdapters(name, settings, deps);
    live.set(name, adapters.live);
    if (adapters.test) {
      test.set(name, adapters.test);
    }
  }
  return new ProviderFleet(names, live, test);
}
