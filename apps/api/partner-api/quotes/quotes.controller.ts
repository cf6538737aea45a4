import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import type { AuthenticatedPartner } from '#app/partners';
import { QuotesService } from '#app/quotes';
import { CurrentPartner } from '../../platform/auth/current-partner.decorator.js';
import { PartnerApi } from '../../platform/auth/partner-api.decorator.js';
import { RequiresProviderActivation } from '../../platform/auth/partner-access.guard.js';
import { CreateQuoteDto } from '../../platform/contract/create-quote.dto.js';
import { QuoteResponse } from '../../platform/contract/quote.response.js';
import {
  ApiErrors,
  JSON_BODY_ERRORS,
  UPSTREAM_ERRORS,
} from '../../platform/contract/api-errors.decorator.js';

@ApiTags('quotes')
@PartnerApi()
@Controller('v1/quotes')
export class QuotesController {
  constructor(private readonly quotes: QuotesService) {}

  @Post()
  @ApiOperation({
    summary: 'Quote an exchange',
    description:
      'The estimated amount to receive for `amountFrom` (float), or a fixed rate with a `rateId` ' +
      'to create a swap with before it expires (fixed).',
  })
  @ApiErrors(
    ...JSON_BODY_ERRORS,
    ...UPSTREAM_ERRORS,
    ErrorCode.UpstreamEmptyQuote,
    ErrorCode.PairUnsupported,
    ErrorCode.AmountBelowMin,
    ErrorCode.AmountAboveMax,
  )
  @HttpCode(200)
  @RequiresProviderActivation()
  @ApiOkResponse({ type: QuoteResponse, description: 'The quote.' })
  async create(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Body() body: CreateQuoteDto,
  ): Promise<QuoteResponse> {
    const { quote } = await this.quotes.quote(partner, body);
    return { quote };
  }
}
