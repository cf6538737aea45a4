import { Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { PartnersModule } from '#app/partners';
import { RoutingModule } from '#app/routing';
import { QuotesDataModule } from './quotes-data.module.js';
import { QuotesService } from './quotes.service.js';

/** Partner quotes; a fixed rate's lifetime follows `QUOTES_CONFIG`. */
@Module({
  imports: [CatalogueModule, PartnersModule, QuotesDataModule, RoutingModule],
  providers: [QuotesService],
  exports: [QuotesService],
})
export class QuotesModule {}
