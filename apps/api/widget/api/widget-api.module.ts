import { DynamicModule, Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { PartnersModule } from '#app/partners';
import { ProviderModule } from '#app/provider';
import { RedisModule } from '#app/redis';
import { SwapsModule } from '#app/swaps';
import { RateLimitingModule } from '../../platform/rate-limiting/rate-limiting.module.js';
import { QuotesModule as QuotesDomainModule, type QuotesOptions } from '#app/quotes';
import { TestModeModule } from '#app/test-mode';
import { StatusTokens, WidgetsModule } from '#app/widgets';
import { WidgetPageController } from '../page/widget-page.controller.js';
import { WidgetApiController } from './widget-api.controller.js';
import { WidgetSettings } from './widget-origin.js';
import { WidgetSwapsService } from './widget-swaps.service.js';

export interface WidgetApiOptions {
  /** `CREDENTIAL_ENCRYPTION_KEY`: the status tokens of widget swaps derive from it. */
  credentialEncryptionKey: Buffer;
  quotes: QuotesOptions;
  /** `PUBLIC_URL`'s origin: the hosted page's own origin (null: the loopback origins of its port). */
  publicUrl: string | null;
}

/**
 * The swap widget: `/widget-api/v1` (a thin module over the partner API's services, with its own
 * guard and limits), the hosted page `/widget` and the loader `/widget.js`.
 */
@Module({})
export class WidgetApiModule {
  static forRoot(options: WidgetApiOptions): DynamicModule {
    return {
      module: WidgetApiModule,
      imports: [
        WidgetsModule,
        SwapsModule,
        PartnersModule,
        ProviderModule,
        RedisModule,
        RateLimitingModule,
        CatalogueModule,
        QuotesDomainModule.forRoot(options.quotes),
        TestModeModule,
      ],
      controllers: [WidgetApiController, WidgetPageController],
      providers: [
        { provide: StatusTokens, useValue: new StatusTokens(options.credentialEncryptionKey) },
        { provide: WidgetSettings, useValue: new WidgetSettings(options.publicUrl) },
        WidgetSwapsService,
      ],
    };
  }
}
