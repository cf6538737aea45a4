import { DynamicModule, Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { PartnersModule } from '#app/partners';
import { RoutingModule } from '#app/routing';
import { QuotesDataModule } from './quotes-data.module.js';
import { QUOTES_OPTIONS, QuotesService, type QuotesOptions } from './quotes.service.js';

/** Partner quotes. */
@Module({})
export class QuotesModule {
  static forRoot(options: QuotesOptions): DynamicModule {
    return {
      module: QuotesModule,
      imports: [CatalogueModule, PartnersModule, QuotesDataModule, RoutingModule],
      providers: [{ provide: QUOTES_OPTIONS, useValue: options }, QuotesService],
      exports: [QuotesService],
    };
  }
}
