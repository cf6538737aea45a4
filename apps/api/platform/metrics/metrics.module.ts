import { Module } from '@nestjs/common';
import { ProviderModule, UpstreamCallListeners } from '#app/provider';
import { RoutingObservers, RoutingStateModule } from '#app/routing';
import { PingListeners, WebhooksModule } from '#app/webhooks';
import { AdminAuthModule } from '../auth/admin-auth.module.js';
import { ApiMetrics } from './api.metrics.js';
import { MetricsController } from './metrics.controller.js';

/**
 * `/metrics`; every call of the api's provider adapters, what routing sees and how each webhook
 * ping went are counted in it.
 */
@Module({
  imports: [ProviderModule, RoutingStateModule, WebhooksModule, AdminAuthModule],
  controllers: [MetricsController],
  providers: [ApiMetrics],
  exports: [ApiMetrics],
})
export class MetricsModule {
  constructor(
    listeners: UpstreamCallListeners,
    observers: RoutingObservers,
    pings: PingListeners,
    metrics: ApiMetrics,
  ) {
    listeners.add(metrics.onUpstreamCall);
    observers.add(metrics);
    pings.add((outcome) => metrics.webhookPings.inc({ outcome }));
  }
}
