import { Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { APP_SETTINGS, requireSetting, type AppSettings } from '#app/config';
import { EventsModule } from '#app/events';
import { PartnersModule } from '#app/partners';
import { QuotesDataModule } from '#app/quotes';
import { RedisModule } from '#app/redis';
import { RoutingModule } from '#app/routing';
import { KeyCache } from './key-cache.js';
import { LegacyImportService } from './legacy-import.service.js';
import {
  KeyReservations,
  SWAP_CREATION_OPTIONS,
  type SwapCreationOptions,
} from './key-reservations.js';
import { SwapCreationService } from './swap-creation.service.js';
import { SwapPersistence } from './swap-persistence.js';
import { SwapPricing } from './swap-pricing.js';
import { SwapsDataModule } from './swaps-data.module.js';
import { UpstreamAttempts } from './upstream-attempts.js';

/** Swap creation, reads and legacy import. The key lock follows `APP_SETTINGS.provider`. */
@Module({
  imports: [
    SwapsDataModule,
    QuotesDataModule,
    CatalogueModule,
    RoutingModule,
    PartnersModule,
    EventsModule,
    RedisModule,
  ],
  providers: [
    {
      provide: SWAP_CREATION_OPTIONS,
      useFactory: (settings: AppSettings): SwapCreationOptions => ({
        providerTimeoutMs: Math.max(
          ...[settings.provider, settings.changenow].map((config) => config?.timeoutMs ?? 0),
        ),
        providers: requireSetting(settings, 'providers').length,
      }),
      inject: [APP_SETTINGS],
    },
    KeyCache,
    KeyReservations,
    UpstreamAttempts,
    SwapPricing,
    SwapPersistence,
    SwapCreationService,
    LegacyImportService,
  ],
  exports: [SwapCreationService, LegacyImportService, SwapsDataModule],
})
export class SwapsModule {}
