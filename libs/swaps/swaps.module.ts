import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyKeyEntity, SwapEntity } from '#app/persistence';
import { QuotesModule } from '#app/quotes';
import { IdempotencyRepository } from './idempotency.repository.js';
import { LegacyImportService } from './legacy-import.service.js';
import { SwapCreationService } from './swap-creation.service.js';
import { SwapQueryService } from './swap-query.service.js';
import { SwapsRepository } from './swaps.repository.js';

@Module({
  imports: [QuotesModule, TypeOrmModule.forFeature([SwapEntity, IdempotencyKeyEntity])],
  providers: [
    SwapsRepository,
    IdempotencyRepository,
    SwapCreationService,
    SwapQueryService,
    LegacyImportService,
  ],
  exports: [SwapCreationService, SwapQueryService, SwapsRepository, LegacyImportService],
})
export class SwapsModule {}
