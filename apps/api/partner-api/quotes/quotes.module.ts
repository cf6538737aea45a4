import { DynamicModule, Module } from '@nestjs/common';
import { QuotesModule as QuotesDomainModule, type QuotesOptions } from '#app/quotes';
import { PartnerApiModule } from '../../platform/auth/partner-api.module.js';
import { QuotesController } from './quotes.controller.js';

@Module({})
export class QuotesModule {
  static forRoot(options: QuotesOptions): DynamicModule {
    return {
      module: QuotesModule,
      imports: [QuotesDomainModule.forRoot(options), PartnerApiModule],
      controllers: [QuotesController],
    };
  }
}
