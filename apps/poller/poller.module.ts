import { DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import type { PollerConfig } from '#app/config';
import { HealthProbesModule } from '#app/health';
import { PersistenceModule } from '#app/persistence';
import { ProviderModule } from '#app/provider';
import { RateLimitModule, UpstreamGateModule } from '#app/rate-limit';
import { RedisModule } from '#app/redis';
import { SettlementModule } from '#app/settlement';
import { HousekeepingTick } from './housekeeping.tick.js';
import { POLLER_TICK_OPTIONS, SwapPollerTick } from './swap-poller.tick.js';

@Module({})
export class PollerModule {
  static forRoot(config: PollerConfig): DynamicModule {
    return {
      module: PollerModule,
      imports: [
        ScheduleModule.forRoot(),
        PersistenceModule.forRoot(config.database),
        RedisModule.forRoot(config.redis),
        // Every provider call waits for the shared upstream budget at background priority:
        // the poller only takes slots partner traffic leaves free (DECISIONS §3.13).
        RateLimitModule,
        UpstreamGateModule.forRoot({ priority: 'background' }),
        ProviderModule.forRoot({ provider: config.provider, testProvider: config.testProvider }),
        SettlementModule.forRoot({
          pollIntervalMs: config.pollIntervalMs,
          testPollIntervalMs: config.testPollIntervalMs,
          leaseMs: config.leaseMs,
          batchSize: config.batchSize,
        }),
        HealthProbesModule.forRoot(config),
      ],
      providers: [
        {
          provide: POLLER_TICK_OPTIONS,
          useValue: { tickMs: config.tickMs, testTickMs: config.testTickMs },
        },
        SwapPollerTick,
        HousekeepingTick,
      ],
    };
  }
}
