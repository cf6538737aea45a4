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
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import type { AuthenticatedPartner } from '#app/partners';
import { CurrentPartner } from '../../platform/auth/current-partner.decorator.js';
import { PartnerApi } from '../../platform/auth/partner-api.decorator.js';
import { SwapResponse } from '../../platform/contract/swap.response.js';
import {
  TestAddressesQueryDto,
  TestAddressesResponse,
  TestDepositDto,
  TestStatusDto,
} from '../../platform/contract/test-helpers.dto.js';
import { TestHelpersService } from '#app/test-mode';
import { TestModeOnlyGuard } from '../../platform/auth/test-mode-only.guard.js';
import {
  ApiErrors,
  JSON_BODY_ERRORS,
  UPSTREAM_ERRORS,
} from '../../platform/contract/api-errors.decorator.js';

/** A partner endpoint that answers test credentials only (403 `test_mode_only` otherwise). */
const TestHelpersApi = (): ClassDecorator =>
  applyDecorators(PartnerApi(), ApiErrors(ErrorCode.TestModeOnly), UseGuards(TestModeOnlyGuard));

const TEST_ONLY =
  ' Test mode only: a live credential (`pk_live_`) gets 403 `test_mode_only`; use a `pk_test_` one.';

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
  @ApiOperation({
    summary: 'Deposit to a test swap',
    description:
      'The sandbox receives the deposit of a test swap (by default the expected amount, on time), ' +
      'and the swap is refreshed at once; it then moves on to `finished` within seconds.' +
      TEST_ONLY,
  })
  @ApiErrors(...JSON_BODY_ERRORS, ...UPSTREAM_ERRORS, ErrorCode.NotFound, ErrorCode.Conflict)
  @HttpCode(200)
  @ApiOkResponse({ type: SwapResponse, description: 'The swap after the deposit.' })
  async deposit(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Param('id') id: string,
    @Body() body: TestDepositDto,
  ): Promise<SwapResponse> {
    return { swap: await this.helpers.deposit(partner, id, body) };
  }

  @Post('swaps/:id/status')
  @ApiOperation({
    summary: 'Force the status of a test swap',
    description:
      'The sandbox moves a test swap to the given status, so you can test how your integration ' +
      'handles each one; the swap is refreshed at once.' +
      TEST_ONLY,
  })
  @ApiErrors(...JSON_BODY_ERRORS, ...UPSTREAM_ERRORS, ErrorCode.NotFound, ErrorCode.Conflict)
  @HttpCode(200)
  @ApiOkResponse({ type: SwapResponse, description: 'The swap in its new status.' })
  async forceStatus(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Param('id') id: string,
    @Body() body: TestStatusDto,
  ): Promise<SwapResponse> {
    return { swap: await this.helpers.forceStatus(partner, id, body.status) };
  }

  @Get('addresses')
  @ApiOperation({
    summary: 'Addresses to test with',
    description:
      'Valid addresses of a currency (at least three), which pass the strict check of ' +
      '`POST /v1/swaps`.' +
      TEST_ONLY,
  })
  @ApiErrors(...UPSTREAM_ERRORS, ErrorCode.InvalidRequest, ErrorCode.PairUnsupported)
  @ApiOkResponse({ type: TestAddressesResponse, description: 'Addresses of the currency.' })
  async addresses(@Query() query: TestAddressesQueryDto): Promise<TestAddressesResponse> {
    return { addresses: await this.helpers.addresses(query.currency) };
  }
}
