import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EarningsEntryEntity, OrganizationEntity, PayoutEntity } from '#app/persistence';
import { UPSTREAM_CALL_LISTENER } from '#app/provider';
import { EarningsRepository } from './earnings.repository.js';
import { EarningsService } from './earnings.service.js';
import { HousekeepingRepository } from './housekeeping.repository.js';
import { PollMetrics } from './poll-metrics.js';
import { SwapPollingRepository } from './swap-polling.repository.js';
import {
  HOLD_INTERVAL_MS,
  POLLING_OPTIONS,
  SwapPollingService,
  type PollingOptions,
} from './swap-polling.service.js';
import { UsdPricer } from './usd-pricer.js';

/** Earnings ledger, payouts and the operator's statement; needs no provider. */
@Module({
  imports: [TypeOrmModule.forFeature([EarningsEntryEntity, PayoutEntity, OrganizationEntity])],
  providers: [EarningsRepository, EarningsService],
  exports: [EarningsRepository, EarningsService],
})
export class EarningsModule {}

/** The poller's metrics; global so the provider adapter reports every call of the poller to them. */
@Global()
@Module({
  providers: [
    PollMetrics,
    {
      provide: UPSTREAM_CALL_LISTENER,
      useFactory: (metrics: PollMetrics) => metrics.onUpstreamCall,
      inject: [PollMetrics],
    },
  ],
  exports: [PollMetrics, UPSTREAM_CALL_LISTENER],
})
export class PollMetricsModule {}

/** The status poller's work: claims, provider reports, transitions, settlement and earnings. */
@Module({})
export class SettlementModule {
  /** Needs the global `LIQUIDITY_PROVIDER` (ProviderModule). */
  static forRoot(
    options: Omit<PollingOptions, 'holdIntervalMs'> & { holdIntervalMs?: number },
  ): DynamicModule {
    const resolved: PollingOptions = {
      ...options,
      holdIntervalMs: options.holdIntervalMs ?? HOLD_INTERVAL_MS,
    };
    return {
      module: SettlementModule,
      imports: [EarningsModule, PollMetricsModule],
      providers: [
        { provide: POLLING_OPTIONS, useValue: resolved },
        SwapPollingRepository,
        SwapPollingService,
        UsdPricer,
        HousekeepingRepository,
      ],
      exports: [SwapPollingService, SwapPollingRepository, HousekeepingRepository],
    };
  }
}
