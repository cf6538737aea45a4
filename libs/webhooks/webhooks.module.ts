import { DynamicModule, Module } from '@nestjs/common';
import { WEBHOOK_CONFIG, type WebhookConfig } from '#app/config';
import { EventsModule } from '#app/events';
import { PartnersModule } from '#app/partners';
import { RedisModule } from '#app/redis';
import { resolveWithDns, type WebhookTargetPolicy } from './delivery/index.js';
import { WebhookDeliveryClaims } from './webhook-delivery-claims.repository.js';
import { WebhookDeliveryHistory } from './webhook-delivery-history.repository.js';
import { WebhookDeliveryHousekeeping } from './webhook-delivery-housekeeping.repository.js';
import { WebhookDeliveryMetrics } from './webhook-delivery-metrics.repository.js';
import {
  WEBHOOK_DELIVERY_OPTIONS,
  WebhookDispatcher,
  type WebhookDeliveryOptions,
} from './webhook.dispatcher.js';
import {
  PingListeners,
  WEBHOOK_RESOLVER,
  WEBHOOK_TARGET_POLICY,
  WebhookEndpointsService,
} from './webhook-endpoints.service.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhookMetrics } from './webhook.metrics.js';
import { WebhookOutbox } from './webhook.outbox.js';
import { WebhookSecretsResealer } from './webhook-secrets.resealer.js';

/**
 * The tables this lib owns and the outbox the apps bind to the events lib; at start, secrets of
 * the former sealing are re-sealed with the partners lib's cipher.
 */
@Module({
  imports: [PartnersModule],
  providers: [
    WebhookEndpointsRepository,
    WebhookDeliveryClaims,
    WebhookDeliveryHistory,
    WebhookDeliveryMetrics,
    WebhookDeliveryHousekeeping,
    WebhookOutbox,
    WebhookSecretsResealer,
  ],
  exports: [
    WebhookEndpointsRepository,
    WebhookDeliveryClaims,
    WebhookDeliveryHistory,
    WebhookDeliveryMetrics,
    WebhookDeliveryHousekeeping,
    WebhookOutbox,
  ],
})
export class WebhooksDataModule {}

/**
 * Partners' endpoint management, for the api; the target rules follow `WEBHOOK_CONFIG`,
 * pings in flight are counted in the shared store.
 */
@Module({
  imports: [WebhooksDataModule, PartnersModule, EventsModule, RedisModule],
  providers: [
    {
      provide: WEBHOOK_TARGET_POLICY,
      useFactory: (webhooks: WebhookConfig): WebhookTargetPolicy => ({
        allowPrivateTargets: webhooks.allowPrivateTargets,
      }),
      inject: [WEBHOOK_CONFIG],
    },
    { provide: WEBHOOK_RESOLVER, useValue: resolveWithDns },
    PingListeners,
    WebhookEndpointsService,
  ],
  exports: [WebhookEndpointsService, PingListeners],
})
export class WebhooksModule {}

/** The poller's delivery work. */
@Module({})
export class WebhookDeliveryModule {
  static forRoot(options: WebhookDeliveryOptions): DynamicModule {
    return {
      module: WebhookDeliveryModule,
      imports: [WebhooksDataModule, PartnersModule],
      providers: [
        { provide: WEBHOOK_DELIVERY_OPTIONS, useValue: options },
        { provide: WEBHOOK_RESOLVER, useValue: resolveWithDns },
        WebhookMetrics,
        WebhookDispatcher,
      ],
      exports: [WebhookDispatcher, WebhookMetrics],
    };
  }
}
