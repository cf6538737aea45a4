import { Controller, Get, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CatalogueService } from '#app/catalogue';
import { ErrorCode } from '#app/errors';
import { PartnerApi } from '../../platform/auth/partner-api.decorator.js';
import { CurrenciesQueryDto } from '../../platform/contract/currencies-query.dto.js';
import { CurrenciesResponse, CurrencyView } from '../../platform/contract/currency.response.js';
import { ApiErrors, UPSTREAM_ERRORS } from '../../platform/contract/api-errors.decorator.js';
import type { AuthenticatedPartner } from '#app/partners';
import { CurrentPartner } from '../../platform/auth/current-partner.decorator.js';

@ApiTags('catalogue')
@ApiExtraModels(CurrencyView)
@PartnerApi()
@Controller('v1/currencies')
export class CurrenciesController {
  constructor(private readonly catalogue: CatalogueService) {}

  @Get()
  @ApiOperation({
    summary: 'List currencies',
    description:
      'The currencies you can swap, with their networks and whether they need an extra id.',
  })
  @ApiErrors(...UPSTREAM_ERRORS, ErrorCode.InvalidRequest)
  @ApiOkResponse({ type: CurrenciesResponse, description: 'The currencies.' })
  async list(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Query() query: CurrenciesQueryDto,
  ): Promise<CurrenciesResponse> {
    return CurrenciesResponse.of(
      await this.catalogue.currencies(partner.livemode),
      query.lite ?? false,
    );
  }
}
