import { DynamicModule, Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { ProviderModule } from '#app/provider';
import { QuotesDataModule } from './quotes-data.module.js';
import { QUOTES_OPTIONS, QuotesService, type QuotesOptions } from './quotes.service.js';

/** Partner quotes. */
@Module({})
export class QuotesModule {
  static forRoot(options: QuotesOptions): DynamicModule {
    return {
      module: QuotesModule,
      imports: [CatalogueModule, QuotesDataModule, ProviderModule],
      providers: [{ provide: QUOTES_OPTIONS, useValue: options }, QuotesService],
      exports: [QuotesService],
    };
  }
}
