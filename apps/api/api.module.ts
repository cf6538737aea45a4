import { DynamicModule, Module } from '@nestjs/common';
import type { ApiConfig } from '#app/config';
import { EventsModule as EventsDomainModule } from '#app/events';
import { HealthModule } from '#app/health';
import { PartnersModule } from '#app/partners';
import { PersistenceModule } from '#app/persistence';
import { ProviderModule } from '#app/provider';
import { RateLimitModule, UpstreamGateModule } from '#app/rate-limit';
import { RedisModule } from '#app/redis';
import { SwapsModule as SwapsDomainModule } from '#app/swaps';
import { WebhookOutbox, WebhooksDataModule, WebhooksModule } from '#app/webhooks';
import { AddressesModule } from './addresses/addresses.module.js';
import { AdminAuthModule } from './admin/admin-auth.module.js';
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

@Module({})
export class ApiModule {
  static forRoot(config: ApiConfig): DynamicModule {
    const testHelpers = TestHelpersModule.forRoot({
      testProviderUrl: config.testProvider?.url ?? null,
      timeoutMs: config.provider.timeoutMs,
    });
    return {
      module: ApiModule,
      imports: [
        AdminAuthModule.forRoot({ token: config.adminToken }),
        PersistenceModule.forRoot(config.database),
        RedisModule.forRoot(config.redis),
        MetricsModule,
        RateLimitModule,
        RateLimitingModule,
        UpstreamGateModule.forRoot({ priority: 'partner' }),
        ProviderModule.forRoot({ provider: config.provider, testProvider: config.testProvider }),
        PartnersModule.forRoot(config.credentialEncryptionKey),
        HealthModule.forRoot(config),
        OpenApiModule,
        AdminModule,
        CurrenciesModule,
        PairsModule,
        AddressesModule,
        QuotesModule.forRoot({ fixedRateTtlSeconds: config.fixedRateTtlSeconds }),
        PublicQuotesModule,
        SwapsDomainModule.forRoot({ providerTimeoutMs: config.provider.timeoutMs }),
        SwapsModule,
        EventsDomainModule.forRoot({ imports: [WebhooksDataModule], outbox: WebhookOutbox }),
        EventsModule,
        WebhooksModule.forRoot({ allowPrivateTargets: config.webhooks.allowPrivateTargets }),
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
