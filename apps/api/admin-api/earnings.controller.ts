import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import { EarningsService } from '#app/earnings';
import { AdminApi } from '../platform/auth/admin-api.decorator.js';
import { OrganizationIdPipe } from './admin-params.js';
import { EarningsResponse, toEarningsView } from './dto/earnings.response.js';
import { ApiErrors } from '../platform/contract/api-errors.decorator.js';

@ApiTags('admin')
@AdminApi()
@Controller('admin/organizations')
export class AdminEarningsController {
  constructor(private readonly earnings: EarningsService) {}

  /** Balance in USD, ledger entries and payouts (docs/decisions.md, "Operating the service"). */
  @Get(':id/earnings')
  @ApiOperation({
    summary: "An organization's earnings",
    description: 'Balance in USD, ledger entries and payouts.',
  })
  @ApiErrors(ErrorCode.NotFound)
  @ApiOkResponse({ type: EarningsResponse, description: 'The earnings statement.' })
  async get(@Param('id', OrganizationIdPipe) id: string): Promise<EarningsResponse> {
    return { earnings: toEarningsView(await this.earnings.statement(id)) };
  }
}
