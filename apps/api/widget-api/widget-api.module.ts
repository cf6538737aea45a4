import { DynamicModule, Module } from '@nestjs/common';
import { PartnersModule } from '#app/partners';
import { ProviderModule } from '#app/provider';
import { RedisModule } from '#app/redis';
import { SwapsModule } from '#app/swaps';
import { RateLimitingModule } from '../rate-limiting/rate-limiting.module.js';
import { QuotesModule as QuotesDomainModule, type QuotesOptions } from '#app/quotes';
import { StatusTokens, WidgetsModule } from '#app/widgets';
import { AddressesModule } from '../addresses/addresses.module.js';
import { CurrenciesModule } from '../currencies/currencies.module.js';
import { PairsModule } from '../pairs/pairs.module.js';
import { WidgetPageController } from '../widget/widget-page.controller.js';
import { WidgetApiController } from './widget-api.controller.js';
import { WidgetSettings } from './widget-origin.js';
import { WidgetSwapsService } from './widget-swaps.service.js';

export interface WidgetApiOptions {
  /** `CREDENTIAL_ENCRYPTION_KEY`: the status tokens of widget swaps derive from it. */
  credentialEncryptionKey: Buffer;
  quotes: QuotesOptions;
  /** The api's own test helpers module (the same instance), for "Simulate deposit". */
  testHelpers: DynamicModule;
  /** `PUBLIC_URL`'s origin: the hosted page's own origin (null: each request's). */
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
        CurrenciesModule,
        PairsModule,
        AddressesModule,
        QuotesDomainModule.forRoot(options.quotes),
        options.testHelpers,
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
