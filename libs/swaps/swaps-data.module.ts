import { Module } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository.js';
import { SwapViewsRepository } from './swap-views.repository.js';
import { SwapsRepository } from './swaps.repository.js';

/** The repositories of the tables this lib owns, for processes that need only those. */
@Module({
  providers: [SwapsRepository, SwapViewsRepository, IdempotencyRepository],
  exports: [SwapsRepository, SwapViewsRepository, IdempotencyRepository],
})
export class SwapsDataModule {}
