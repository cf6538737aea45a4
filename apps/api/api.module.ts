import { DynamicModule, Module } from '@nestjs/common';
import type { ApiConfig } from '#app/config';
import { CoreModule } from '#app/core';
import { EventRecorder, EventsModule as EventsDomainModule } from '#app/events';
import { HealthModule } from '#app/health';
import { WebhookOutbox, WebhooksDataModule } from '#app/webhooks';
import { AddressesModule } from './addresses/addresses.module.js';
import { AdminModule } from './admin/admin.module.js';
import { CurrenciesModule } from './currencies/currencies.module.js';
import { DashboardModule } from './dashboard/dashboard.module.js';
import { EventsModule } from './events/events.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { OpenApiModule } from './openapi/openapi.module.js';
import { PairsModule } from './pairs/pairs.module.js';
import { PublicQuotesModule } from './public-quotes/public-quotes.module.js';
import { QuotesModule } from './quotes/quotes.module.js';
import { RateLimitingModule } from './rate-limiting/rate-limiting.module.js';
import { SwapsModule } from './swaps/swaps.module.js';
import { TestHelpersModule } from './test-helpers/test-helpers.module.js';
import { WebhookEndpointsModule } from './webhook-endpoints/webhook-endpoints.module.js';
import { WidgetApiModule } from './widget-api/widget-api.module.js';

/**
 * The api: the process's core (configuration, database) and its route modules, each of which
 * imports what it uses. The root binds the webhook outbox to the event recorder.
 */
@Module({})
export class ApiModule {
  constructor(recorder: EventRecorder, outbox: WebhookOutbox) {
    recorder.bindOutbox(outbox);
  }

  static forRoot(config: ApiConfig): DynamicModule {
    const testHelpers = TestHelpersModule.forRoot({ testProvider: config.testProvider });
    return {
      module: ApiModule,
      imports: [
        CoreModule.forRoot({ ...config, upstreamPriority: 'partner' }),
        EventsDomainModule,
        WebhooksDataModule,
        MetricsModule,
        RateLimitingModule,
        HealthModule.forRoot(config),
        OpenApiModule,
        AdminModule,
        CurrenciesModule,
        PairsModule,
        AddressesModule,
        QuotesModule.forRoot({ fixedRateTtlSeconds: config.fixedRateTtlSeconds }),
        PublicQuotesModule,
        SwapsModule,
        EventsModule,
        WebhookEndpointsModule,
        DashboardModule.forRoot(config),
        testHelpers,
        WidgetApiModule.forRoot({
          credentialEncryptionKey: config.credentialEncryptionKey,
          quotes: { fixedRateTtlSeconds: config.fixedRateTtlSeconds },
          testHelpers,
          publicUrl: config.dashboard.publicUrl,
        }),
      ],
    };
  }
}
