import { Module } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository.js';
import { SwapQueryService } from './swap-query.service.js';
import { SwapViewsRepository } from './swap-views.repository.js';
import { SwapsRepository } from './swaps.repository.js';

/**
 * The repositories of the tables this lib owns and the reads over them, for processes that need
 * only those (the poller, the CLI).
 */
@Module({
  providers: [SwapsRepository, SwapViewsRepository, IdempotencyRepository, SwapQueryService],
  exports: [SwapsRepository, SwapViewsRepository, IdempotencyRepository, SwapQueryService],
})
export class SwapsDataModule {}
