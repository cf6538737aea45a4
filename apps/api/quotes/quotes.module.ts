import { DynamicModule, Module } from '@nestjs/common';
import { QuotesModule as QuotesDomainModule, type QuotesOptions } from '#app/quotes';
import { QuotesController } from './quotes.controller.js';

@Module({})
export class QuotesModule {
  static forRoot(options: QuotesOptions): DynamicModule {
    return {
      module: QuotesModule,
      imports: [QuotesDomainModule.forRoot(options)],
      controllers: [QuotesController],
    };
  }
}
