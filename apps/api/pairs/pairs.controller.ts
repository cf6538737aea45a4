import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import { PartnerApi } from '../auth/partner-api.decorator.js';
import { PairQueryDto } from './dto/pair-query.dto.js';
import { PairResponse } from './dto/pair.response.js';
import { PairsService } from './pairs.service.js';
import { ApiErrors, UPSTREAM_ERRORS } from '../common/api-errors.decorator.js';

@ApiTags('catalogue')
@PartnerApi()
@Controller('v1/pairs')
export class PairsController {
  constructor(private readonly pairs: PairsService) {}

  @Get()
  @ApiOperation({
    summary: 'Get a pair',
    description: 'Limits and the rate modes (float, fixed) of one currency pair.',
  })
  @ApiErrors(...UPSTREAM_ERRORS, ErrorCode.InvalidRequest, ErrorCode.PairUnsupported)
  @ApiOkResponse({ type: PairResponse, description: 'The pair.' })
  get(@Query() query: PairQueryDto): Promise<PairResponse> {
    return this.pairs.get(query.from, query.to);
  }
}
