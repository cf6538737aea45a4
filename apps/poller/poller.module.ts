import { DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import type { PollerConfig } from '#app/config';
import { EventsModule } from '#app/events';
import { HealthProbesModule } from '#app/health';
import { PartnersModule } from '#app/partners';
import { PersistenceModule } from '#app/persistence';
import { ProviderModule } from '#app/provider';
import { RateLimitModule, UpstreamGateModule } from '#app/rate-limit';
import { RedisModule } from '#app/redis';
import { SettlementModule } from '#app/settlement';
import { WebhookDeliveryModule, WebhookOutbox, WebhooksDataModule } from '#app/webhooks';
import { HousekeepingTick } from './housekeeping.tick.js';
import { POLLER_TICK_OPTIONS, SwapPollerTick } from './swap-poller.tick.js';
import { WEBHOOK_TICK_OPTIONS, WebhookDeliveryTick } from './webhook-delivery.tick.js';

/** Deliveries sent at once by one poller; each takes at most 10 s. */
const WEBHOOK_BATCH_SIZE = 50;

@Module({})
export class PollerModule {
  static forRoot(config: PollerConfig): DynamicModule {
    return {
      module: PollerModule,
      imports: [
        ScheduleModule.forRoot(),
        PersistenceModule.forRoot(config.database),
        RedisModule.forRoot(config.redis),
        // Every provider call waits for the shared upstream budget at background priority: the
        // poller only takes slots partner traffic leaves free (docs/decisions.md, "The upstream
        // budget").
        RateLimitModule,
        UpstreamGateModule.forRoot({ priority: 'background' }),
        ProviderModule.forRoot({ provider: config.provider, testProvider: config.testProvider }),
        // The cipher that opens webhook secrets, and the audit log an endpoint disable goes to.
        PartnersModule.forRoot(config.credentialEncryptionKey),
        EventsModule.forRoot({ imports: [WebhooksDataModule], outbox: WebhookOutbox }),
        WebhookDeliveryModule.forRoot({
          policy: { allowPrivateTargets: config.webhooks.allowPrivateTargets },
          retryBaseMs: config.webhooks.retryBaseMs,
          leaseMs: config.webhookLeaseMs,
          batchSize: WEBHOOK_BATCH_SIZE,
        }),
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
        { provide: WEBHOOK_TICK_OPTIONS, useValue: { tickMs: config.webhookTickMs } },
        SwapPollerTick,
        WebhookDeliveryTick,
        HousekeepingTick,
      ],
    };
  }
}
