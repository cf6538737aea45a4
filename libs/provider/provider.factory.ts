import { requireSetting, type AppSettings } from '#app/config';
import type { ProviderName } from '#app/domain';
import type { UpstreamGates } from '#app/rate-limit';
import type { KeyValueStore } from '#app/redis';
import { ChangellyAdapter } from './changelly.adapter.js';
import { ChangeNowAdapter } from './changenow.adapter.js';
import { LiquidityProviders } from './mode-routed.provider.js';
import type { UpstreamCallEvent } from './upstream-call.runner.js';

/** What every adapter a process builds shares: the cache, the budgets, the call listener. */
export interface AdapterDependencies {
  cache: KeyValueStore;
  gates: UpstreamGates;
  onCall: (event: UpstreamCallEvent) => void;
}

/**
 * The live and the test adapter of provider `name`, from the process's settings (a provider the
 * settings do not configure stops the process at boot, naming it). Each mode spends its own
 * budget; caches are kept per endpoint in the shared store.
 */
export function createLiquidityProviders(
  name: ProviderName,
  settings: AppSettings,
  deps: AdapterDependencies,
): LiquidityProviders {
  const common = (budget: 'live' | 'test') => ({
    cache: deps.cache,
    gate: deps.gates.forBudget(budget),
    onCall: deps.onCall,
  });
  switch (name) {
    case 'changelly': {
      const test = settings.testProvider;
      return new LiquidityProviders(
        new ChangellyAdapter(requireSetting(settings, 'provider'), common('live')),
        test ? new ChangellyAdapter(test, common('test')) : null,
      );
    }
    case 'changenow': {
      const test = settings.testChangenow;
      return new LiquidityProviders(
        new ChangeNowAdapter(requireSetting(settings, 'changenow'), common('live')),
        test ? new ChangeNowAdapter(test, common('test')) : null,
      );
    }
  }
}
