import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { PartnerAuthGuard } from '../auth/partner-auth.guard.js';
import { PairQuery } from './dto/pair.query.js';
import { PairResponse } from './dto/pair.response.js';
import { PairsService } from './pairs.service.js';

@ApiTags('catalogue')
@ApiBearerAuth()
@UseGuards(PartnerAuthGuard)
@Controller('v1/pairs')
export class PairsController {
  constructor(private readonly pairs: PairsService) {}

  @Get()
  @ApiOkResponse({ type: PairResponse })
  get(@Query() query: PairQuery): Promise<PairResponse> {
    return this.pairs.get(query.from, query.to);
  }
}
