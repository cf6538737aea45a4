import { Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { CREDENTIALS_CONFIG, type CredentialsConfig } from '#app/config';
import { PartnersModule } from '#app/partners';
import { ProviderModule } from '#app/provider';
import { RedisModule } from '#app/redis';
import { SwapsModule } from '#app/swaps';
import { RateLimitingModule } from '../../platform/rate-limiting/rate-limiting.module.js';
import { QuotesModule as QuotesDomainModule } from '#app/quotes';
import { TestModeModule } from '#app/test-mode';
import { StatusTokens, WidgetsModule } from '#app/widgets';
import { WidgetPageController } from '../page/widget-page.controller.js';
import { WidgetApiController } from './widget-api.controller.js';
import { WidgetSwapsService } from './widget-swaps.service.js';

/**
 * The swap widget: `/widget-api/v1` (a thin module over the partner API's services, with its own
 * guard and limits), the hosted page `/widget` and the loader `/widget.js`. The hosted page's own
 * origin is `DASHBOARD_CONFIG.publicUrl` (null: the loopback origins of its port).
 */
@Module({
  imports: [
    WidgetsModule,
    SwapsModule,
    PartnersModule,
    ProviderModule,
    RedisModule,
    RateLimitingModule,
    CatalogueModule,
    QuotesDomainModule,
    TestModeModule,
  ],
  controllers: [WidgetApiController, WidgetPageController],
  providers: [
    {
      // The status tokens of widget swaps derive from `CREDENTIAL_ENCRYPTION_KEY`.
      provide: StatusTokens,
      useFactory: (credentials: CredentialsConfig) => new StatusTokens(credentials.encryptionKey),
      inject: [CREDENTIALS_CONFIG],
    },
    WidgetSwapsService,
  ],
})
export class WidgetApiModule {}
