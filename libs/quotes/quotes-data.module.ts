import { Module } from '@nestjs/common';
import { FixedRatesRepository } from './fixed-rates.repository.js';

/** The repository of the table this lib owns, for processes that need only it. */
@Module({
  providers: [FixedRatesRepository],
  exports: [FixedRatesRepository],
})
export class QuotesDataModule {}
