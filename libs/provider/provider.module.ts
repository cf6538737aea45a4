import { Module } from '@nestjs/common';
import { APP_SETTINGS, type AppSettings, type ProviderConfig } from '#app/config';
import type { ProviderName } from '#app/domain';
import { UPSTREAM_GATES, UpstreamGateModule, type UpstreamGates } from '#app/rate-limit';
import { KEY_VALUE_STORE, RedisModule, type KeyValueStore } from '#app/redis';
import { ChangellyAdapter } from './changelly.adapter.js';
import type { LiquidityProvider } from './liquidity-provider.js';
import { ProviderFleet } from './provider-fleet.js';
import type { UpstreamCallEvent } from './upstream-call.runner.js';

/** Told about every call that reached the provider (metrics). */
export type UpstreamCallListener = (event: UpstreamCallEvent) => void;

/**
 * Whoever counts upstream calls (the api's and the poller's metrics) adds its listener here from
 * its own module, which imports this one: the provider lib never depends on who listens.
 */
export class UpstreamCallListeners {
  private readonly listeners: UpstreamCallListener[] = [];

  add(listener: UpstreamCallListener): void {
    this.listeners.push(listener);
  }

  readonly notify = (event: UpstreamCallEvent): void => {
    for (const listener of this.listeners) {
      listener(event);
    }
  };
}

/**
 * Each provider's cap on calls per second, across every api replica and poller (docs/decisions.md,
 * "Liquidity routing across providers").
 */
export const PROVIDER_CAPS: Record<ProviderName, number> = { changelly: 10, changenow: 30 };

export const PROVIDER_FLEET = Symbol('PROVIDER_FLEET');

/**
 * Provides `PROVIDER_FLEET`: an adapter per provider of `PROVIDERS` and per mode (test where the
 * deployment has a test endpoint). Each adapter spends its own upstream budget (per provider and
 * mode); their caches are in the shared store (through Redis across replicas).
 */
@Module({
  imports: [RedisModule, UpstreamGateModule],
  providers: [
    UpstreamCallListeners,
    {
      provide: PROVIDER_FLEET,
      useFactory: (
        settings: AppSettings,
        cache: KeyValueStore,
        gates: UpstreamGates,
        listeners: UpstreamCallListeners,
      ): ProviderFleet => {
        const changelly = (config: ProviderConfig, mode: 'live' | 'test'): LiquidityProvider =>
          new ChangellyAdapter(config, {
            cache,
            gate: gates.forBudget(`changelly:${mode}`, PROVIDER_CAPS.changelly),
            onCall: listeners.notify,
          });
        const live = new Map<ProviderName, LiquidityProvider>();
        const test = new Map<ProviderName, LiquidityProvider>();
        if (settings.provider) {
          live.set('changelly', changelly(settings.provider, 'live'));
        }
        if (settings.testProvider) {
          test.set('changelly', changelly(settings.testProvider, 'test'));
        }
        return new ProviderFleet(settings.providers ?? ['changelly'], live, test);
      },
      inject: [APP_SETTINGS, KEY_VALUE_STORE, UPSTREAM_GATES, UpstreamCallListeners],
    },
  ],
  exports: [PROVIDER_FLEET, UpstreamCallListeners],
})
export class ProviderModule {}
