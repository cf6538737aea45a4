import { Module } from '@nestjs/common';
import { APP_SETTINGS, type AppSettings } from '#app/config';
import { UPSTREAM_GATES, UpstreamGateModule, type UpstreamGates } from '#app/rate-limit';
import { KEY_VALUE_STORE, RedisModule, type KeyValueStore } from '#app/redis';
import type { UpstreamCallEvent } from './upstream-call.runner.js';
import { LIQUIDITY_PROVIDER } from './liquidity-provider.js';
import {
  LIQUIDITY_PROVIDERS,
  LiquidityProviders,
  ModeRoutedProvider,
} from './mode-routed.provider.js';
import { createLiquidityProviders } from './provider.factory.js';

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
 * Provides `LIQUIDITY_PROVIDERS` (the live and the test provider, from `APP_SETTINGS.provider` and
 * `testProvider`) and `LIQUIDITY_PROVIDER`, which routes each call by the mode its entry point set.
 * Each provider spends its own upstream budget; their caches are in the shared store (through
 * Redis across replicas).
 */
@Module({
  imports: [RedisModule, UpstreamGateModule],
  providers: [
    UpstreamCallListeners,
    {
      provide: LIQUIDITY_PROVIDERS,
      useFactory: (
        settings: AppSettings,
        cache: KeyValueStore,
        gates: UpstreamGates,
        listeners: UpstreamCallListeners,
      ): LiquidityProviders =>
        createLiquidityProviders('changelly', settings, {
          cache,
          gates,
          onCall: listeners.notify,
        }),
      inject: [APP_SETTINGS, KEY_VALUE_STORE, UPSTREAM_GATES, UpstreamCallListeners],
    },
    {
      provide: LIQUIDITY_PROVIDER,
      useFactory: (providers: LiquidityProviders) => new ModeRoutedProvider(providers),
      inject: [LIQUIDITY_PROVIDERS],
    },
  ],
  exports: [LIQUIDITY_PROVIDER, LIQUIDITY_PROVIDERS, UpstreamCallListeners],
})
export class ProviderModule {}
