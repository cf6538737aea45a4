import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { EarningsService } from '#app/settlement';
import { AdminApi } from './admin-api.decorator.js';
import { OrganizationIdPipe } from './admin-params.js';
import { EarningsResponse, toEarningsView } from './dto/earnings.response.js';

@ApiTags('admin')
@AdminApi()
@Controller('admin/organizations')
export class AdminEarningsController {
  constructor(private readonly earnings: EarningsService) {}

  /** Balance in USD, ledger entries and payouts (DECISIONS §5). */
  @Get(':id/earnings')
  @ApiOkResponse({ type: EarningsResponse })
  async get(@Param('id', OrganizationIdPipe) id: string): Promise<EarningsResponse> {
    return { earnings: toEarningsView(await this.earnings.statement(id)) };
  }
}
