import { DynamicModule, Global, Module } from '@nestjs/common';
import { UPSTREAM_CALL_LISTENER } from '#app/provider';
import { QuotesDataModule } from '#app/quotes';
import { SwapsDataModule } from '#app/swaps';
import { WebhooksDataModule } from '#app/webhooks';
import { EarningsRepository } from './earnings.repository.js';
import { EarningsService } from './earnings.service.js';
import { HousekeepingService } from './housekeeping.service.js';
import { PollCyclesRepository } from './poll-cycles.repository.js';
import { PollMetrics } from './poll-metrics.js';
import { SwapRefresher } from './swap-refresher.js';
import {
  POLLING_OPTIONS,
  SwapPollingService,
  type PollingOptions,
} from './swap-polling.service.js';
import { UsdPricer } from './usd-pricer.js';

/** Earnings ledger, payouts and the operator's statement; needs no provider. */
@Module({
  providers: [EarningsRepository, EarningsService],
  exports: [EarningsRepository, EarningsService],
})
export class EarningsModule {}

/** Applies provider reports to swaps: the poller's, and those the api's test helpers ask for. */
@Module({
  imports: [EarningsModule, SwapsDataModule],
  providers: [SwapRefresher],
  exports: [SwapRefresher],
})
export class SwapRefreshModule {}

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

/**
 * The status poller's work: claims, provider reports, transitions, settlement and earnings.
 * Needs the global EventsModule of `#app/events`.
 */
@Module({})
export class SettlementModule {
  /** Needs the global `LIQUIDITY_PROVIDERS` (ProviderModule). */
  static forRoot(options: PollingOptions): DynamicModule {
    return {
      module: SettlementModule,
      imports: [
        EarningsModule,
        PollMetricsModule,
        SwapRefreshModule,
        SwapsDataModule,
        QuotesDataModule,
        WebhooksDataModule,
      ],
      providers: [
        { provide: POLLING_OPTIONS, useValue: options },
        PollCyclesRepository,
        SwapPollingService,
        UsdPricer,
        HousekeepingService,
      ],
      exports: [SwapPollingService, HousekeepingService, SwapsDataModule],
    };
  }
}
