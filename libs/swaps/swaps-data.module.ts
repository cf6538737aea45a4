import { Module } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository.js';
import { SwapsRepository } from './swaps.repository.js';

/** The repositories of the tables this lib owns, for processes that need only those. */
@Module({
  providers: [SwapsRepository, IdempotencyRepository],
  exports: [SwapsRepository, IdempotencyRepository],
})
export class SwapsDataModule {}
