import { DynamicModule, Module } from '@nestjs/common';
import { sharedNamespaces, type ApiConfig } from '#app/config';
import { CoreModule } from '#app/core';
import { EventRecorder, EventsModule as EventsDomainModule } from '#app/events';
import { HealthModule } from '#app/health';
import { WebhookOutbox, WebhooksDataModule } from '#app/webhooks';
import { AddressesModule } from './partner-api/addresses/addresses.module.js';
import { AdminModule } from './admin-api/admin.module.js';
import { AssetsModule } from './platform/assets/assets.module.js';
import { CurrenciesModule } from './partner-api/currencies/currencies.module.js';
import { DashboardModule } from './dashboard/dashboard.module.js';
import { EventsModule } from './partner-api/events/events.module.js';
import { MetricsModule } from './platform/metrics/metrics.module.js';
import { OpenApiModule } from './platform/openapi/openapi.module.js';
import { PairsModule } from './partner-api/pairs/pairs.module.js';
import { PublicQuotesModule } from './partner-api/public-quotes/public-quotes.module.js';
import { QuotesModule } from './partner-api/quotes/quotes.module.js';
import { RateLimitingModule } from './platform/rate-limiting/rate-limiting.module.js';
import { SwapsModule } from './partner-api/swaps/swaps.module.js';
import { TestHelpersModule } from './partner-api/test-helpers/test-helpers.module.js';
import { WebhookEndpointsModule } from './partner-api/webhook-endpoints/webhook-endpoints.module.js';
import { WidgetApiModule } from './widget/api/widget-api.module.js';

/**
 * The api: the process's core (its configuration namespaces, the database) and its route modules,
 * each of which imports what it uses. The root binds the webhook outbox to the event recorder.
 */
@Module({})
export class ApiModule {
  constructor(recorder: EventRecorder, outbox: WebhookOutbox) {
    recorder.bindOutbox(outbox);
  }

  static forRoot(config: ApiConfig): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        CoreModule.forRoot({
          ...sharedNamespaces(config),
          upstream: { priority: 'partner' },
          quotes: { fixedRateTtlSeconds: config.fixedRateTtlSeconds },
          admin: { token: config.adminToken },
          dashboard: config.dashboard,
        }),
        EventsDomainModule,
        WebhooksDataModule,
        MetricsModule,
        RateLimitingModule,
        HealthModule,
        OpenApiModule,
        AssetsModule,
        AdminModule,
        CurrenciesModule,
        PairsModule,
        AddressesModule,
        QuotesModule,
        PublicQuotesModule,
        SwapsModule,
        EventsModule,
        WebhookEndpointsModule,
        DashboardModule,
        TestHelpersModule,
        WidgetApiModule,
      ],
    };
  }
}
