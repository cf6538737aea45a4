import { Module } from '@nestjs/common';
import { QuotesModule as QuotesDomainModule } from '#app/quotes';
import { PartnerApiModule } from '../../platform/auth/partner-api.module.js';
import { QuotesController } from './quotes.controller.js';

@Module({
  imports: [QuotesDomainModule, PartnerApiModule],
  controllers: [QuotesController],
})
export class QuotesModule {}
