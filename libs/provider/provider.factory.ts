import type { ProvidersConfig } from '#app/config';
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

/** A provider's live settings; absent, the process stops at boot naming the provider. */
function configured<T>(name: ProviderName, config: T | null): T {
  if (config === null) {
    throw new Error(`this process's providers configuration has no settings for ${name}`);
  }
  return config;
}

/**
 * The live and the test adapter of provider `name` (test only where the configuration gives it a
 * test endpoint), from the process's `PROVIDERS_CONFIG`: a provider it does not configure stops
 * the process at boot, naming it. Each provider and mode spends its own budget; caches are kept per
 * endpoint in the shared store.
 */
export function createAdapters(
  name: ProviderName,
  providers: ProvidersConfig,
  deps: AdapterDependencies,
): { live: LiquidityProvider; test: LiquidityProvider | null } {
  const common = (mode: 'live' | 'test') => ({
    cache: deps.cache,
    gate: deps.gates.forBudget(`${name}:${mode}`, PROVIDER_CAPS[name]),
    onCall: deps.onCall,
  });
  switch (name) {
    case 'changelly': {
      const test = providers.testProvider;
      return {
        live: new ChangellyAdapter(configured(name, providers.provider), common('live')),
        test: test ? new ChangellyAdapter(test, common('test')) : null,
      };
    }
    case 'changenow': {
      const test = providers.testChangenow;
      return {
        live: new ChangeNowAdapter(configured(name, providers.changenow), common('live')),
        test: test ? new ChangeNowAdapter(test, common('test')) : null,
      };
    }
  }
}

/** The adapters of every provider `PROVIDERS` names, per mode, in its order. */
export function createProviderFleet(
  providers: ProvidersConfig,
  deps: AdapterDependencies,
): ProviderFleet {
  const names = providers.providers;
  const live = new Map<ProviderName, LiquidityProvider>();
  const test = new Map<ProviderName, LiquidityProvider>();
  for (const name of names) {
    const adapters = createAdapters(name, providers, deps);
    live.set(name, adapters.live);
    if (adapters.test) {
      test.set(name, adapters.test);
    }
  }
  return new ProviderFleet(names, live, test);
}
