import { Global, Module } from '@nestjs/common';
import { UPSTREAM_CALL_LISTENER } from '#app/provider';
import { ApiMetrics } from './api.metrics.js';
import { MetricsController } from './metrics.controller.js';

/** Global so the provider adapter can report its calls to it. */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [
    ApiMetrics,
    {
      provide: UPSTREAM_CALL_LISTENER,
      useFactory: (metrics: ApiMetrics) => metrics.onUpstreamCall,
      inject: [ApiMetrics],
    },
  ],
  exports: [ApiMetrics, UPSTREAM_CALL_LISTENER],
})
export class MetricsModule {}
