import { DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { sharedNamespaces, type PollerConfig } from '#app/config';
import { CoreModule } from '#app/core';
import { EventRecorder, EventsModule } from '#app/events';
import { HealthProbesModule } from '#app/health';
import { MailDeliveryModule } from '#app/mail';
import { QuotesDataModule } from '#app/quotes';
import { PollingModule } from '#app/polling';
import { SwapsDataModule } from '#app/swaps';
import { WebhookDeliveryModule, WebhookOutbox, WebhooksDataModule } from '#app/webhooks';
import { HousekeepingService } from './housekeeping.service.js';
import { HousekeepingTick } from './housekeeping.tick.js';
import { MailDeliveryTick } from './mail-delivery.tick.js';
import { SwapPollerTick } from './swap-poller.tick.js';
import { WebhookDeliveryTick } from './webhook-delivery.tick.js';

/** Deliveries sent at once by one poller; each takes at most 10 s. */
const WEBHOOK_BATCH_SIZE = 50;
/** Mails claimed per round, sent one after another (each within the SMTP timeouts, 10 s a step). */
const MAIL_BATCH_SIZE = 20;
/** Longer than a round of `MAIL_BATCH_SIZE` slow sends, so only a dead poller's mail is retaken. */
const MAIL_LEASE_MS = 10 * 60 * 1000;

/** The poller's ticks over its libs; the root binds the webhook outbox to the event recorder. */
@Module({})
export class PollerModule {
  constructor(recorder: EventRecorder, outbox: WebhookOutbox) {
    recorder.bindOutbox(outbox);
  }

  static forRoot(config: PollerConfig): DynamicModule {
    return {
      module: PollerModule,
      imports: [
        ScheduleModule.forRoot(),
        // Provider calls wait for the shared upstream budget at background priority: the poller
        // only takes slots partner traffic leaves free (docs/decisions.md, "The upstream budget").
        CoreModule.forRoot({
          ...sharedNamespaces(config),
          upstream: { priority: 'background' },
          polling: {
            pollIntervalMs: config.pollIntervalMs,
            testPollIntervalMs: config.testPollIntervalMs,
            leaseMs: config.leaseMs,
            batchSize: config.batchSize,
          },
          ticks: {
            pollMs: config.tickMs,
            testPollMs: config.testTickMs,
            webhookMs: config.webhookTickMs,
            mailMs: config.mailTickMs,
          },
          webhookDelivery: { leaseMs: config.webhookLeaseMs, batchSize: WEBHOOK_BATCH_SIZE },
          mail: config.mail,
          mailDelivery: {
            retryBaseMs: config.mailRetryBaseMs,
            leaseMs: MAIL_LEASE_MS,
            batchSize: MAIL_BATCH_SIZE,
          },
        }),
        EventsModule,
        WebhooksDataModule,
        SwapsDataModule,
        QuotesDataModule,
        WebhookDeliveryModule,
        PollingModule,
        MailDeliveryModule,
        HealthProbesModule,
      ],
      providers: [
        SwapPollerTick,
        WebhookDeliveryTick,
        MailDeliveryTick,
        HousekeepingService,
        HousekeepingTick,
      ],
    };
  }
}
