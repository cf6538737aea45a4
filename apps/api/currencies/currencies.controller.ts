import { Controller, Get, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { PartnerApi } from '../auth/partner-api.decorator.js';
import { CurrenciesService } from './currencies.service.js';
import { CurrenciesQuery } from './dto/currencies.query.js';
import { CurrenciesResponse, CurrencyView } from './dto/currency.response.js';

@ApiTags('catalogue')
@ApiExtraModels(CurrencyView)
@PartnerApi()
@Controller('v1/currencies')
export class CurrenciesController {
  constructor(private readonly currencies: CurrenciesService) {}

  @Get()
  @ApiOkResponse({ type: CurrenciesResponse })
  list(@Query() query: CurrenciesQuery): Promise<CurrenciesResponse> {
    return this.currencies.list(query.lite ?? false);
  }
}
