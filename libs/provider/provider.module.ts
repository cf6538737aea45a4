import { Module } from '@nestjs/common';
import { PROVIDERS_CONFIG, type ProvidersConfig } from '#app/config';
import { UPSTREAM_GATES, UpstreamGateModule, type UpstreamGates } from '#app/rate-limit';
import { KEY_VALUE_STORE, RedisModule, type KeyValueStore } from '#app/redis';
import type { ProviderFleet } from './provider-fleet.js';
import { createProviderFleet } from './provider.factory.js';
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
        providers: ProvidersConfig,
        cache: KeyValueStore,
        gates: UpstreamGates,
        listeners: UpstreamCallListeners,
      ): ProviderFleet =>
        createProviderFleet(providers, { cache, gates, onCall: listeners.notify }),
      inject: [PROVIDERS_CONFIG, KEY_VALUE_STORE, UPSTREAM_GATES, UpstreamCallListeners],
    },
  ],
  exports: [PROVIDER_FLEET, UpstreamCallListeners],
})
export class ProviderModule {}
