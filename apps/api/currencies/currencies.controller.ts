import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { PartnerAuthGuard } from '../auth/partner-auth.guard.js';
import { CurrenciesService } from './currencies.service.js';
import { CurrenciesQuery } from './dto/currencies.query.js';
import { CurrenciesResponse, CurrencyView } from './dto/currency.response.js';

@ApiTags('catalogue')
@ApiBearerAuth()
@ApiExtraModels(CurrencyView)
@UseGuards(PartnerAuthGuard)
@Controller('v1/currencies')
export class CurrenciesController {
  constructor(private readonly currencies: CurrenciesService) {}

  @Get()
  @ApiOkResponse({ type: CurrenciesResponse })
  list(@Query() query: CurrenciesQuery): Promise<CurrenciesResponse> {
    return this.currencies.list(query.lite ?? false);
  }
}
