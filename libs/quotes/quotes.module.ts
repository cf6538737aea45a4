import { DynamicModule, Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { RoutingModule } from '#app/routing';
import { QuotesDataModule } from './quotes-data.module.js';
import { QUOTES_OPTIONS, QuotesService, type QuotesOptions } from './quotes.service.js';

/** Partner quotes. */
@Module({})
export class QuotesModule {
  static forRoot(options: QuotesOptions): DynamicModule {
    return {
      module: QuotesModule,
      imports: [CatalogueModule, QuotesDataModule, RoutingModule],
      providers: [{ provide: QUOTES_OPTIONS, useValue: options }, QuotesService],
      exports: [QuotesService],
    };
  }
}
