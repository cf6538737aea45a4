import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import { SwapQueryService } from '#app/swaps';
import { AdminApi } from '../platform/auth/admin-api.decorator.js';
import { ApiErrors } from '../platform/contract/api-errors.decorator.js';
import { OperatorSwapResponse } from './dto/operator-swap.response.js';

@ApiTags('admin')
@AdminApi()
@Controller('admin/swaps')
export class AdminSwapsController {
  constructor(private readonly swaps: SwapQueryService) {}

  @Get(':id')
  @ApiOperation({
    summary: 'Get any swap',
    description:
      "Any organization's swap, live or test, legacy `swp_…` ids too: every field a partner " +
      "sees, the provider it was created at, that provider's transaction id and the organization.",
  })
  @ApiErrors(ErrorCode.NotFound)
  @ApiOkResponse({ type: OperatorSwapResponse, description: 'The swap.' })
  async get(@Param('id') id: string): Promise<OperatorSwapResponse> {
    return { swap: await this.swaps.getForOperator(id) };
  }
}
