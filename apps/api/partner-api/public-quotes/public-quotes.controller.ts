import { Controller, Get, Header, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import { RateLimitGuard } from '../../platform/rate-limiting/rate-limit.guard.js';
import { RateLimits } from '../../platform/rate-limiting/rate-limits.decorator.js';
import { PublicQuoteQueryDto } from './dto/public-quote-query.dto.js';
import { PublicQuoteResponse } from './dto/public-quote.response.js';
import { PublicQuotesService } from './public-quotes.service.js';
import {
  ApiErrors,
  DEPENDENCY_ERRORS,
  UPSTREAM_ERRORS,
} from '../../platform/contract/api-errors.decorator.js';

@ApiTags('public')
@RateLimits('ip', 'public-quote')
@UseGuards(RateLimitGuard)
@Controller('v1/public/quote')
export class PublicQuotesController {
  constructor(private readonly publicQuotes: PublicQuotesService) {}

  @Get()
  @ApiOperation({
    summary: 'Public price',
    description:
      'An indicative price for browsers, without a credential: cached for 10 s, rate-limited per ' +
      'IP, standard fee included. Not a quote to create a swap with.',
  })
  @ApiErrors(
    ...DEPENDENCY_ERRORS,
    ...UPSTREAM_ERRORS,
    ErrorCode.InvalidRequest,
    ErrorCode.PairUnsupported,
    ErrorCode.AmountBelowMin,
    ErrorCode.AmountAboveMax,
    ErrorCode.RateLimited,
  )
  @Header('Cache-Control', 'public, max-age=10')
  @ApiOkResponse({ type: PublicQuoteResponse, description: 'The indicative price.' })
  quote(@Query() query: PublicQuoteQueryDto): Promise<PublicQuoteResponse> {
    return this.publicQuotes.quote(query.from, query.to, query.amount);
  }
}
