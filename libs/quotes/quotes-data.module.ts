import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FixedRateEntity } from '#app/persistence';
import { FixedRatesRepository } from './fixed-rates.repository.js';

/** The repository of the table this lib owns, for processes that need only it. */
@Module({
  imports: [TypeOrmModule.forFeature([FixedRateEntity])],
  providers: [FixedRatesRepository],
  exports: [FixedRatesRepository],
})
export class QuotesDataModule {}
