import { DynamicModule, Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { QuotesDataModule } from '#app/quotes';
import { LegacyImportService } from './legacy-import.service.js';
import {
  SWAP_CREATION_OPTIONS,
  SwapCreationService,
  type SwapCreationOptions,
} from './swap-creation.service.js';
import { SwapQueryService } from './swap-query.service.js';
import { SwapsDataModule } from './swaps-data.module.js';

/**
 * Swap creation, reads and legacy import, for every module of the app that imports it once at
 * the root. Needs the global PartnersModule and ProviderModule.
 */
@Module({})
export class SwapsModule {
  static forRoot(options: SwapCreationOptions): DynamicModule {
    return {
      module: SwapsModule,
      global: true,
      imports: [SwapsDataModule, QuotesDataModule, CatalogueModule],
      providers: [
        { provide: SWAP_CREATION_OPTIONS, useValue: options },
        SwapCreationService,
        SwapQueryService,
        LegacyImportService,
      ],
      exports: [SwapCreationService, SwapQueryService, LegacyImportService],
    };
  }
}
