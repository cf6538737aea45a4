import { Module } from '@nestjs/common';
import { EventsModule } from '#app/events';
import { PartnersModule } from '#app/partners';
import { RedisModule } from '#app/redis';
import { resolveWithDns } from './delivery/index.js';
import { WebhookDeliveryClaims } from './webhook-delivery-claims.repository.js';
import { WebhookDeliveryHistory } from './webhook-delivery-history.repository.js';
import { WebhookDeliveryHousekeeping } from './webhook-delivery-housekeeping.repository.js';
import { WebhookDeliveryMetrics } from './webhook-delivery-metrics.repository.js';
import { WebhookDispatcher } from './webhook.dispatcher.js';
import {
  PingListeners,
  WEBHOOK_RESOLVER,
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
    { provide: WEBHOOK_RESOLVER, useValue: resolveWithDns },
    PingListeners,
    WebhookEndpointsService,
  ],
  exports: [WebhookEndpointsService, PingListeners],
})
export class WebhooksModule {}

/** The poller's delivery work (`WEBHOOK_CONFIG`, `WEBHOOK_DELIVERY_CONFIG`). */
@Module({
  imports: [WebhooksDataModule, PartnersModule],
  providers: [
    { provide: WEBHOOK_RESOLVER, useValue: resolveWithDns },
    WebhookMetrics,
    WebhookDispatcher,
  ],
  exports: [WebhookDispatcher, WebhookMetrics],
})
export class WebhookDeliveryModule {}
