import { Module } from '@nestjs/common';
import { ProviderModule, UpstreamCallListeners } from '#app/provider';
import { RoutingObservers, RoutingStateModule } from '#app/routing';
import { AdminAuthModule } from '../auth/admin-auth.module.js';
import { ApiMetrics } from './api.metrics.js';
import { MetricsController } from './metrics.controller.js';

/** `/metrics`; every call of the api's provider adapters and what routing sees is counted in it. */
@Module({
  imports: [ProviderModule, RoutingStateModule, AdminAuthModule],
  controllers: [MetricsController],
  providers: [ApiMetrics],
  exports: [ApiMetrics],
})
export class MetricsModule {
  constructor(listeners: UpstreamCallListeners, observers: RoutingObservers, metrics: ApiMetrics) {
    listeners.add(metrics.onUpstreamCall);
    observers.add(metrics);
  }
}
