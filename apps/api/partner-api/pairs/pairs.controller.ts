import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CatalogueService } from '#app/catalogue';
import { ErrorCode } from '#app/errors';
import { PartnerApi } from '../../platform/auth/partner-api.decorator.js';
import { PairQueryDto } from '../../platform/contract/pair-query.dto.js';
import { PairResponse } from '../../platform/contract/pair.response.js';
import { ApiErrors, UPSTREAM_ERRORS } from '../../platform/contract/api-errors.decorator.js';
import type { AuthenticatedPartner } from '#app/partners';
import { CurrentPartner } from '../../platform/auth/current-partner.decorator.js';

@ApiTags('catalogue')
@PartnerApi()
@Controller('v1/pairs')
export class PairsController {
  constructor(private readonly catalogue: CatalogueService) {}

  @Get()
  @ApiOperation({
    summary: 'Get a pair',
    description: 'Limits and the rate modes (float, fixed) of one currency pair.',
  })
  @ApiErrors(...UPSTREAM_ERRORS, ErrorCode.InvalidRequest, ErrorCode.PairUnsupported)
  @ApiOkResponse({ type: PairResponse, description: 'The pair.' })
  async get(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Query() query: PairQueryDto,
  ): Promise<PairResponse> {
    return PairResponse.of(await this.catalogue.pair(partner.livemode, query.from, query.to));
  }
}
