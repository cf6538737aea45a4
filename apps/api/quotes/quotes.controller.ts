import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedPartner } from '#app/partners';
import { QuotesService } from '#app/quotes';
import { CurrentPartner } from '../auth/current-partner.decorator.js';
import { PartnerAuthGuard, RequiresProviderActivation } from '../auth/partner-auth.guard.js';
import { CreateQuoteRequest } from './dto/create-quote.request.js';
import { QuoteResponse } from './dto/quote.response.js';

@ApiTags('quotes')
@ApiBearerAuth()
@UseGuards(PartnerAuthGuard)
@Controller('v1/quotes')
export class QuotesController {
  constructor(private readonly quotes: QuotesService) {}

  @Post()
  @HttpCode(200)
  @RequiresProviderActivation()
  @ApiOkResponse({ type: QuoteResponse })
  async create(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Body() body: CreateQuoteRequest,
  ): Promise<QuoteResponse> {
    const { quote } = await this.quotes.quote(partner, body);
    return { quote };
  }
}
