import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogueModule } from '#app/catalogue';
import { FixedRateEntity } from '#app/persistence';
import { FixedRatesRepository } from './fixed-rates.repository.js';
import { QuotesService } from './quotes.service.js';

@Module({
  imports: [CatalogueModule, TypeOrmModule.forFeature([FixedRateEntity])],
  providers: [QuotesService, FixedRatesRepository],
  exports: [QuotesService, FixedRatesRepository, CatalogueModule],
})
export class QuotesModule {}
