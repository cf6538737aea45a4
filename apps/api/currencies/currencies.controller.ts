import { Controller, Get, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { PartnerApi } from '../auth/partner-api.decorator.js';
import { CurrenciesService } from './currencies.service.js';
import { CurrenciesQueryDto } from './dto/currencies-query.dto.js';
import { CurrenciesResponse, CurrencyView } from './dto/currency.response.js';

@ApiTags('catalogue')
@ApiExtraModels(CurrencyView)
@PartnerApi()
@Controller('v1/currencies')
export class CurrenciesController {
  constructor(private readonly currencies: CurrenciesService) {}

  @Get()
  @ApiOkResponse({ type: CurrenciesResponse })
  list(@Query() query: CurrenciesQueryDto): Promise<CurrenciesResponse> {
    return this.currencies.list(query.lite ?? false);
  }
}
