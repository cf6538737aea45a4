import { Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { PROVIDERS_CONFIG, type ProvidersConfig } from '#app/config';
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

/** Swap creation, reads and legacy import. The key lock follows `PROVIDERS_CONFIG`. */
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
      useFactory: (providers: ProvidersConfig): SwapCreationOptions => ({
        providerTimeoutMs: Math.max(
          ...[providers.provider, providers.changenow].map((config) => config?.timeoutMs ?? 0),
        ),
        providers: providers.providers.length,
      }),
      inject: [PROVIDERS_CONFIG],
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
