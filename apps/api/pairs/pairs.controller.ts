import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { PartnerApi } from '../auth/partner-api.decorator.js';
import { PairQueryDto } from './dto/pair-query.dto.js';
import { PairResponse } from './dto/pair.response.js';
import { PairsService } from './pairs.service.js';

@ApiTags('catalogue')
@PartnerApi()
@Controller('v1/pairs')
export class PairsController {
  constructor(private readonly pairs: PairsService) {}

  @Get()
  @ApiOkResponse({ type: PairResponse })
  get(@Query() query: PairQueryDto): Promise<PairResponse> {
    return this.pairs.get(query.from, query.to);
  }
}
