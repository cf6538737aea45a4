import { DynamicModule, Module } from '@nestjs/common';
import { resolveWithDns, type WebhookTargetPolicy } from './delivery/index.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import {
  WEBHOOK_DELIVERY_OPTIONS,
  WebhookDispatcher,
  type WebhookDeliveryOptions,
} from './webhook.dispatcher.js';
import {
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
 * the former sealing are re-sealed (needs the global PartnersModule: the cipher).
 */
@Module({
  providers: [
    WebhookEndpointsRepository,
    WebhookDeliveriesRepository,
    WebhookOutbox,
    WebhookSecretsResealer,
  ],
  exports: [WebhookEndpointsRepository, WebhookDeliveriesRepository, WebhookOutbox],
})
export class WebhooksDataModule {}

/** Partners' endpoint management, for the api. Needs the global PartnersModule (the cipher). */
@Module({})
export class WebhooksModule {
  static forRoot(policy: WebhookTargetPolicy): DynamicModule {
    return {
      module: WebhooksModule,
      global: true,
      imports: [WebhooksDataModule],
      providers: [
        { provide: WEBHOOK_TARGET_POLICY, useValue: policy },
        { provide: WEBHOOK_RESOLVER, useValue: resolveWithDns },
        WebhookEndpointsService,
      ],
      exports: [WebhookEndpointsService],
    };
  }
}

/** The poller's delivery work. Needs the global PartnersModule (the cipher, the audit log). */
@Module({})
export class WebhookDeliveryModule {
  static forRoot(options: WebhookDeliveryOptions): DynamicModule {
    return {
      module: WebhookDeliveryModule,
      imports: [WebhooksDataModule],
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
