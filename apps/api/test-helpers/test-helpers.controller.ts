import {
  applyDecorators,
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedPartner } from '#app/partners';
import { CurrentPartner } from '../auth/current-partner.decorator.js';
import { PartnerApi } from '../auth/partner-api.decorator.js';
import { SwapResponse } from '../swaps/dto/swap.response.js';
import {
  TestAddressesQueryDto,
  TestAddressesResponse,
  TestDepositDto,
  TestStatusDto,
} from './dto/test-helpers.dto.js';
import { TestHelpersService } from './test-helpers.service.js';
import { TestModeOnlyGuard } from './test-mode-only.guard.js';

/** A partner endpoint that answers test credentials only (403 `test_mode_only` otherwise). */
const TestHelpersApi = (): ClassDecorator =>
  applyDecorators(PartnerApi(), UseGuards(TestModeOnlyGuard));

/**
 * Test mode's helpers: drive a test swap through its lifecycle, and get valid addresses to
 * create one with. Each answer shows the swap as it is after the change.
 */
@ApiTags('test helpers')
@TestHelpersApi()
@Controller('v1/test_helpers')
export class TestHelpersController {
  constructor(private readonly helpers: TestHelpersService) {}

  @Post('swaps/:id/deposit')
  @HttpCode(200)
  @ApiOkResponse({ type: SwapResponse })
  async deposit(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Param('id') id: string,
    @Body() body: TestDepositDto,
  ): Promise<SwapResponse> {
    return { swap: await this.helpers.deposit(partner, id, body) };
  }

  @Post('swaps/:id/status')
  @HttpCode(200)
  @ApiOkResponse({ type: SwapResponse })
  async forceStatus(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Param('id') id: string,
    @Body() body: TestStatusDto,
  ): Promise<SwapResponse> {
    return { swap: await this.helpers.forceStatus(partner, id, body.status) };
  }

  @Get('addresses')
  @ApiOkResponse({ type: TestAddressesResponse })
  async addresses(@Query() query: TestAddressesQueryDto): Promise<TestAddressesResponse> {
    return { addresses: await this.helpers.addresses(query.currency) };
  }
}
