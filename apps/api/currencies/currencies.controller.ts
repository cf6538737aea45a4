import { Controller, Get, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import { PartnerApi } from '../auth/partner-api.decorator.js';
import { CurrenciesService } from './currencies.service.js';
import { CurrenciesQueryDto } from './dto/currencies-query.dto.js';
import { CurrenciesResponse, CurrencyView } from './dto/currency.response.js';
import { ApiErrors, UPSTREAM_ERRORS } from '../common/api-errors.decorator.js';

@ApiTags('catalogue')
@ApiExtraModels(CurrencyView)
@PartnerApi()
@Controller('v1/currencies')
export class CurrenciesController {
  constructor(private readonly currencies: CurrenciesService) {}

  @Get()
  @ApiOperation({
    summary: 'List currencies',
    description:
      'The currencies you can swap, with their networks and whether they need an extra id.',
  })
  @ApiErrors(...UPSTREAM_ERRORS, ErrorCode.InvalidRequest)
  @ApiOkResponse({ type: CurrenciesResponse, description: 'The currencies.' })
  list(@Query() query: CurrenciesQueryDto): Promise<CurrenciesResponse> {
    return this.currencies.list(query.lite ?? false);
  }
}
