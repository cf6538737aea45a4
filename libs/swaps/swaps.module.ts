import { Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { QuotesDataModule } from '#app/quotes';
import { LegacyImportService } from './legacy-import.service.js';
import { SwapCreationService } from './swap-creation.service.js';
import { SwapQueryService } from './swap-query.service.js';
import { SwapsDataModule } from './swaps-data.module.js';

/** Swap creation, reads and legacy import. Needs the global PartnersModule and ProviderModule. */
@Module({
  imports: [SwapsDataModule, QuotesDataModule, CatalogueModule],
  providers: [SwapCreationService, SwapQueryService, LegacyImportService],
  exports: [SwapCreationService, SwapQueryService, LegacyImportService],
})
export class SwapsModule {}
