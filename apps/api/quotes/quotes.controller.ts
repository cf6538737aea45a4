import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedPartner } from '#app/partners';
import { QuotesService } from '#app/quotes';
import { CurrentPartner } from '../auth/current-partner.decorator.js';
import { PartnerApi } from '../auth/partner-api.decorator.js';
import { RequiresProviderActivation } from '../auth/partner-access.guard.js';
import { CreateQuoteDto } from './dto/create-quote.dto.js';
import { QuoteResponse } from './dto/quote.response.js';

@ApiTags('quotes')
@PartnerApi()
@Controller('v1/quotes')
export class QuotesController {
  constructor(private readonly quotes: QuotesService) {}

  @Post()
  @HttpCode(200)
  @RequiresProviderActivation()
  @ApiOkResponse({ type: QuoteResponse })
  async create(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Body() body: CreateQuoteDto,
  ): Promise<QuoteResponse> {
    const { quote } = await this.quotes.quote(partner, body);
    return { quote };
  }
}
