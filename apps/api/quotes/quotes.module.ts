import { Module } from '@nestjs/common';
import { QuotesModule as QuotesDomainModule } from '#app/quotes';
import { QuotesController } from './quotes.controller.js';

@Module({ imports: [QuotesDomainModule], controllers: [QuotesController] })
export class QuotesModule {}
