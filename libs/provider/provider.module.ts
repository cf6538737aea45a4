import { DynamicModule, Module } from '@nestjs/common';
import type { ProviderConfig } from '#app/config';
import { KEY_VALUE_STORE, type KeyValueStore } from '#app/redis';
import { ChangellyAdapter } from './changelly.adapter.js';
import type { UpstreamCallEvent } from './json-rpc.client.js';
import { LIQUIDITY_PROVIDER, UPSTREAM_GATE, type UpstreamGate } from './liquidity-provider.js';

/** Told about every call that reached the provider (metrics); optional. */
export type UpstreamCallListener = (event: UpstreamCallEvent) => void;
export const UPSTREAM_CALL_LISTENER = Symbol('UPSTREAM_CALL_LISTENER');

export interface ProviderModuleOptions {
  provider: ProviderConfig;
}

/**
 * Provides `LIQUIDITY_PROVIDER`. Its caches use the global `KEY_VALUE_STORE` when the app has
 * one (shared across replicas through Redis), a process-local store otherwise.
 */
@Module({})
export class ProviderModule {
  static forRoot(options: ProviderModuleOptions): DynamicModule {
    return {
      module: ProviderModule,
      global: true,
      providers: [
        {
          provide: LIQUIDITY_PROVIDER,
          useFactory: (cache?: KeyValueStore, gate?: UpstreamGate, onCall?: UpstreamCallListener) =>
            new ChangellyAdapter(options.provider, { cache, gate, onCall }),
          inject: [
            { token: KEY_VALUE_STORE, optional: true },
            { token: UPSTREAM_GATE, optional: true },
            { token: UPSTREAM_CALL_LISTENER, optional: true },
          ],
        },
      ],
      exports: [LIQUIDITY_PROVIDER],
    };
  }
}
