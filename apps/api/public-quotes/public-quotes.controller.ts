import { Controller, Get, Header, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RateLimitGuard } from '../rate-limiting/rate-limit.guard.js';
import { RateLimits } from '../rate-limiting/rate-limits.decorator.js';
import { PublicQuoteQueryDto } from './dto/public-quote-query.dto.js';
import { PublicQuoteResponse } from './dto/public-quote.response.js';
import { PublicQuotesService } from './public-quotes.service.js';

@ApiTags('public')
@RateLimits('ip', 'public-quote')
@UseGuards(RateLimitGuard)
@Controller('v1/public/quote')
export class PublicQuotesController {
  constructor(private readonly publicQuotes: PublicQuotesService) {}

  @Get()
  @Header('Cache-Control', 'public, max-age=10')
  @ApiOkResponse({ type: PublicQuoteResponse })
  quote(@Query() query: PublicQuoteQueryDto): Promise<PublicQuoteResponse> {
    return this.publicQuotes.quote(query.from, query.to, query.amount);
  }
}
