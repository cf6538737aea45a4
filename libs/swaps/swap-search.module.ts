import { Module } from '@nestjs/common';
import { SwapSearchService } from './swap-search.service.js';
import { SwapsDataModule } from './swaps-data.module.js';

/** The dashboard's swap reads: filtered pages, pairs and CSV exports. */
@Module({
  imports: [SwapsDataModule],
  providers: [SwapSearchService],
  exports: [SwapSearchService],
})
export class SwapSearchModule {}
