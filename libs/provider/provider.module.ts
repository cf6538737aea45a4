import { DynamicModule, Module } from '@nestjs/common';
import type { ProviderConfig } from '#app/config';
import { KEY_VALUE_STORE, type KeyValueStore } from '#app/redis';
import { ChangellyAdapter } from './changelly.adapter.js';
import type { UpstreamCallEvent } from './json-rpc.client.js';
import { LIQUIDITY_PROVIDER, UPSTREAM_GATES, type UpstreamGates } from './liquidity-provider.js';
import {
  LIQUIDITY_PROVIDERS,
  LiquidityProviders,
  ModeRoutedProvider,
} from './mode-routed.provider.js';

/** Told about every call that reached the provider (metrics); optional. */
export type UpstreamCallListener = (event: UpstreamCallEvent) => void;
export const UPSTREAM_CALL_LISTENER = Symbol('UPSTREAM_CALL_LISTENER');

export interface ProviderModuleOptions {
  provider: ProviderConfig;
  /** The test-mode provider (`TEST_PROVIDER_URL`); null when this deployment has none. */
  testProvider: ProviderConfig | null;
}

/**
 * Provides `LIQUIDITY_PROVIDERS` (the live and the test provider) and `LIQUIDITY_PROVIDER`,
 * which routes each call by the mode of the request's credential. Each provider spends its own
 * upstream budget. Their caches use the global `KEY_VALUE_STORE` when the app has one (shared
 * across replicas through Redis), a process-local store otherwise.
 */
@Module({})
export class ProviderModule {
  static forRoot(options: ProviderModuleOptions): DynamicModule {
    return {
      module: ProviderModule,
      global: true,
      providers: [
        {
          provide: LIQUIDITY_PROVIDERS,
          useFactory: (
            cache?: KeyValueStore,
            gates?: UpstreamGates,
            onCall?: UpstreamCallListener,
          ) => {
            const adapter = (config: ProviderConfig, budget: 'live' | 'test') =>
              new ChangellyAdapter(config, { cache, gate: gates?.forBudget(budget), onCall });
            return new LiquidityProviders(
              adapter(options.provider, 'live'),
              options.testProvider ? adapter(options.testProvider, 'test') : null,
            );
          },
          inject: [
            { token: KEY_VALUE_STORE, optional: true },
            { token: UPSTREAM_GATES, optional: true },
            { token: UPSTREAM_CALL_LISTENER, optional: true },
          ],
        },
        {
          provide: LIQUIDITY_PROVIDER,
          useFactory: (providers: LiquidityProviders) => new ModeRoutedProvider(providers),
          inject: [LIQUIDITY_PROVIDERS],
        },
      ],
      exports: [LIQUIDITY_PROVIDER, LIQUIDITY_PROVIDERS],
    };
  }
}
