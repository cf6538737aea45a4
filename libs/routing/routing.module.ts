import { randomUUID } from 'node:crypto';
import { Inject, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { PROVIDER_FLEET, ProviderModule, type ProviderFleet } from '#app/provider';
import { KEY_VALUE_STORE, RedisModule, type KeyValueStore } from '#app/redis';
import { LiquidityRouter } from './liquidity-router.js';
import { ProviderCircuits } from './provider-circuits.js';
import { ProviderSettingsRepository } from './provider-settings.repository.js';
import { ProviderStats, STATS_FLUSH_MS } from './provider-stats.js';
import { ProviderStatsRepository } from './provider-stats.repository.js';
import { ProviderSwitches } from './provider-switches.js';
import { RoutingObservers } from './routing-observers.js';

/**
 * What routing knows of the providers, without talking to any: the operators' switches
 * (Postgres), a circuit per provider (shared through the store), this replica's stats (saved
 * every 10 s) and who watches them. The router's process and the operators' tools (the admin API,
 * the CLI, which has no provider settings) share one instance of each.
 */
@Module({
  imports: [RedisModule],
  providers: [
    ProviderSettingsRepository,
    ProviderStatsRepository,
    RoutingObservers,
    {
      provide: ProviderSwitches,
      useFactory: (settings: ProviderSettingsRepository) => new ProviderSwitches(settings),
      inject: [ProviderSettingsRepository],
    },
    {
      provide: ProviderCircuits,
      useFactory: (store: KeyValueStore, observers: RoutingObservers) =>
        new ProviderCircuits(store, randomUUID(), observers),
      inject: [KEY_VALUE_STORE, RoutingObservers],
    },
    {
      provide: ProviderStats,
      useFactory: (repository: ProviderStatsRepository, observers: RoutingObservers) =>
        new ProviderStats(repository, observers),
      inject: [ProviderStatsRepository, RoutingObservers],
    },
  ],
  exports: [
    ProviderSwitches,
    ProviderCircuits,
    ProviderStatsRepository,
    ProviderStats,
    RoutingObservers,
  ],
})
export class RoutingStateModule implements OnModuleInit, OnApplicationShutdown {
  private flushing: NodeJS.Timeout | undefined;

  constructor(@Inject(ProviderStats) private readonly stats: ProviderStats) {}

  onModuleInit(): void {
    this.flushing = setInterval(() => void this.stats.flush(), STATS_FLUSH_MS);
    this.flushing.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.flushing);
    await this.stats.flush();
  }
}

/**
 * Liquidity routing for every process that quotes, creates or polls (docs/decisions.md,
 * "Liquidity routing across providers"): the router over the fleet, with routing's state.
 */
@Module({
  imports: [ProviderModule, RoutingStateModule],
  providers: [
    {
      provide: LiquidityRouter,
      useFactory: (
        fleet: ProviderFleet,
        switches: ProviderSwitches,
        circuits: ProviderCircuits,
        stats: ProviderStats,
        history: ProviderStatsRepository,
      ) => new LiquidityRouter(fleet, switches, circuits, stats, history),
      inject: [
        PROVIDER_FLEET,
        ProviderSwitches,
        ProviderCircuits,
        ProviderStats,
        ProviderStatsRepository,
      ],
    },
  ],
  exports: [ProviderModule, RoutingStateModule, LiquidityRouter],
})
export class RoutingModule {}
