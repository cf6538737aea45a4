import { Module } from '@nestjs/common';
import { EarningsModule } from '#app/earnings';
import { EventsModule } from '#app/events';
import { ProviderModule, UpstreamCallListeners } from '#app/provider';
import { RedisModule } from '#app/redis';
import { RoutingModule } from '#app/routing';
import { QuotesDataModule } from '#app/quotes';
import { SwapsDataModule } from '#app/swaps';
import { PollCyclesRepository } from './poll-cycles.repository.js';
import { PollMetrics } from './poll-metrics.js';
import { RefreshWriter } from './refresh-writer.js';
import { SwapRefresher } from './swap-refresher.js';
import { SwapPollingService } from './swap-polling.service.js';
import { UsdPricer } from './usd-pricer.js';

/**
 * Applies provider reports to swaps: the poller's, and those the api's test helpers ask for; a
 * page is written with the poller's bookkeeping of it (`poll_cycles`).
 */
@Module({
  imports: [EarningsModule, SwapsDataModule, EventsModule],
  providers: [SwapRefresher, RefreshWriter, PollCyclesRepository],
  exports: [SwapRefresher, PollCyclesRepository],
})
export class SwapRefreshModule {}

/** The poller's metrics; every call of this process's provider adapters is counted in them. */
@Module({
  imports: [ProviderModule],
  providers: [PollMetrics],
  exports: [PollMetrics],
})
export class PollMetricsModule {
  constructor(listeners: UpstreamCallListeners, metrics: PollMetrics) {
    listeners.add(metrics.onUpstreamCall);
  }
}

/**
 * The status poller's work: claims, provider reports, transitions, settlement and earnings, at
 * the cadence of `POLLING_CONFIG`.
 */
@Module({
  imports: [
    EarningsModule,
    PollMetricsModule,
    SwapRefreshModule,
    SwapsDataModule,
    QuotesDataModule,
    EventsModule,
    RoutingModule,
    RedisModule,
  ],
  providers: [SwapPollingService, UsdPricer],
  exports: [SwapPollingService, SwapsDataModule, PollMetricsModule],
})
export class PollingModule {}
