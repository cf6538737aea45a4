import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { AddressCheckService, CatalogueService } from '#app/catalogue';
import { ErrorCode } from '#app/errors';
import { QuotesService } from '#app/quotes';
import { TestHelpersService } from '#app/test-mode';
import type { WidgetCaller } from '#app/widgets';
import { ValidateAddressDto } from '../../platform/contract/validate-address.dto.js';
import { ValidateAddressResponse } from '../../platform/contract/validate-address.response.js';
import { RequiresProviderActivation } from '../../platform/auth/partner-access.guard.js';
import {
  ApiErrors,
  JSON_BODY_ERRORS,
  UPSTREAM_ERRORS,
} from '../../platform/contract/api-errors.decorator.js';
import { CurrenciesQueryDto } from '../../platform/contract/currencies-query.dto.js';
import { CurrenciesResponse } from '../../platform/contract/currency.response.js';
import { PairQueryDto } from '../../platform/contract/pair-query.dto.js';
import { PairResponse } from '../../platform/contract/pair.response.js';
import { CreateQuoteDto } from '../../platform/contract/create-quote.dto.js';
import { QuoteResponse } from '../../platform/contract/quote.response.js';
import { RateLimits } from '../../platform/rate-limiting/rate-limits.decorator.js';
import { CreateSwapDto } from '../../platform/contract/create-swap.dto.js';
import { SwapResponse } from '../../platform/contract/swap.response.js';
import {
  TestAddressesQueryDto,
  TestAddressesResponse,
  TestDepositDto,
} from '../../platform/contract/test-helpers.dto.js';
import { TestModeOnlyGuard } from '../../platform/auth/test-mode-only.guard.js';
import { CurrentWidget } from './current-widget.decorator.js';
import { WidgetSwapCreatedResponse, WidgetSwapResponse } from './dto/widget-swap.response.js';
import { WidgetApi } from './widget-api.decorator.js';
import { WidgetSwapsService } from './widget-swaps.service.js';

const SWAP_TOKEN = {
  name: 'X-Swap-Token',
  required: true,
  description: 'The `statusToken` the creation answered.',
};

/**
 * `/widget-api/v1`: what the swap widget calls from the browser with its publishable key. The
 * same services, validation and answers as the partner API's routes of the same names.
 */
@ApiTags('widget')
@WidgetApi()
@Controller('widget-api/v1')
export class WidgetApiController {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly quotes: QuotesService,
    private readonly addresses: AddressCheckService,
    private readonly swaps: WidgetSwapsService,
    private readonly helpers: TestHelpersService,
  ) {}

  @Get('currencies')
  @ApiOperation({ summary: 'List currencies', description: 'As `GET /v1/currencies`.' })
  @ApiErrors(...UPSTREAM_ERRORS, ErrorCode.InvalidRequest)
  @ApiOkResponse({ type: CurrenciesResponse, description: 'The currencies.' })
  async listCurrencies(
    @CurrentWidget() widget: WidgetCaller,
    @Query() query: CurrenciesQueryDto,
  ): Promise<CurrenciesResponse> {
    return CurrenciesResponse.of(
      await this.catalogue.currencies(widget.partner.livemode),
      query.lite ?? false,
    );
  }

  @Get('pairs')
  @ApiOperation({ summary: 'Get a pair', description: 'As `GET /v1/pairs`.' })
  @ApiErrors(...UPSTREAM_ERRORS, ErrorCode.InvalidRequest, ErrorCode.PairUnsupported)
  @ApiOkResponse({ type: PairResponse, description: 'The pair.' })
  async getPair(
    @CurrentWidget() widget: WidgetCaller,
    @Query() query: PairQueryDto,
  ): Promise<PairResponse> {
    const { livemode } = widget.partner;
    return PairResponse.of(await this.catalogue.pair(livemode, query.from, query.to));
  }

  @Post('quotes')
  @ApiOperation({
    summary: 'Quote an exchange',
    description: "As `POST /v1/quotes`, with the key's organization fee.",
  })
  @ApiErrors(
    ...JSON_BODY_ERRORS,
    ...UPSTREAM_ERRORS,
    ErrorCode.UpstreamEmptyQuote,
    ErrorCode.PairUnsupported,
    ErrorCode.AmountBelowMin,
    ErrorCode.AmountAboveMax,
  )
  @HttpCode(200)
  @RequiresProviderActivation()
  @ApiOkResponse({ type: QuoteResponse, description: 'The quote.' })
  async quote(
    @CurrentWidget() widget: WidgetCaller,
    @Body() body: CreateQuoteDto,
  ): Promise<QuoteResponse> {
    const { quote } = await this.quotes.quote(widget.partner, body);
    return { quote };
  }

  @Post('addresses/validate')
  @ApiOperation({
    summary: 'Validate an address',
    description: 'As `POST /v1/addresses/validate`.',
  })
  @ApiErrors(...JSON_BODY_ERRORS, ...UPSTREAM_ERRORS, ErrorCode.PairUnsupported)
  @HttpCode(200)
  @ApiOkResponse({ type: ValidateAddressResponse, description: 'Whether the address is valid.' })
  validateAddress(
    @CurrentWidget() widget: WidgetCaller,
    @Body() body: ValidateAddressDto,
  ): Promise<ValidateAddressResponse> {
    return this.addresses.validate(widget.partner.livemode, body);
  }

  @Post('swaps')
  @ApiOperation({
    summary: 'Create a swap',
    description:
      'As `POST /v1/swaps` (same body, rules and `Idempotency-Key`), for the organization and ' +
      "mode of the widget key. Also answers the swap's `statusToken`; a replay answers the same. " +
      'At most 10 creations a minute per address and key.',
  })
  @ApiErrors(
    ...JSON_BODY_ERRORS,
    ...UPSTREAM_ERRORS,
    ErrorCode.MissingIdempotencyKey,
    ErrorCode.MissingRateId,
    ErrorCode.MissingRefundAddress,
    ErrorCode.InvalidAddress,
    ErrorCode.PairUnsupported,
    ErrorCode.AmountBelowMin,
    ErrorCode.AmountAboveMax,
    ErrorCode.NotFound,
    ErrorCode.IdempotencyKeyMismatch,
    ErrorCode.IdempotencyKeyInUse,
    ErrorCode.RateExpired,
    ErrorCode.ExchangeNotProcessable,
  )
  @HttpCode(201)
  @RateLimits('ip', 'credential', 'widget-creation')
  @RequiresProviderActivation()
  @ApiHeader({ name: 'Idempotency-Key', required: true, description: 'UUID v4' })
  @ApiCreatedResponse({ type: WidgetSwapCreatedResponse, description: 'The swap and its token.' })
  async createSwap(
    @CurrentWidget() widget: WidgetCaller,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Body() body: CreateSwapDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<WidgetSwapCreatedResponse> {
    const { swap, statusToken, replayed } = await this.swaps.create(widget, idempotencyKey, body);
    if (replayed) {
      res.setHeader('Idempotent-Replayed', 'true');
    }
    return { swap, statusToken };
  }

  @Get('swaps/:id')
  @ApiOperation({
    summary: 'Get a swap',
    description:
      'The swap, given its `statusToken`; without the right token, 404. Beside the fields of ' +
      '`GET /v1/swaps/{id}`, `refundHash` once a refund went back.',
  })
  @ApiErrors(ErrorCode.NotFound)
  @ApiHeader(SWAP_TOKEN)
  @ApiOkResponse({ type: WidgetSwapResponse, description: 'The swap.' })
  async getSwap(
    @CurrentWidget() widget: WidgetCaller,
    @Param('id') id: string,
    @Headers('x-swap-token') token: string | undefined,
  ): Promise<WidgetSwapResponse> {
    return { swap: await this.swaps.get(widget, id, token) };
  }

  @Get('swaps/:id/qr.svg')
  @ApiOperation({
    summary: 'Deposit address as a QR code',
    description: "The swap's deposit address as an SVG QR code, given its `statusToken`.",
  })
  @ApiErrors(ErrorCode.NotFound)
  @ApiHeader(SWAP_TOKEN)
  @ApiProduces('image/svg+xml')
  @ApiOkResponse({ description: 'An SVG image.', schema: { type: 'string' } })
  async depositQrCode(
    @CurrentWidget() widget: WidgetCaller,
    @Param('id') id: string,
    @Headers('x-swap-token') token: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const svg = await this.swaps.depositQrCode(widget, id, token);
    res.setHeader('Content-Type', 'image/svg+xml; charset=utf-8');
    return svg;
  }

  @Post('test_helpers/swaps/:id/deposit')
  @ApiOperation({
    summary: 'Deposit to a test swap',
    description:
      'As `POST /v1/test_helpers/swaps/{id}/deposit`, with the swap\u2019s token. Test keys ' +
      'only: a live key gets 403 `test_mode_only`.',
  })
  @ApiErrors(...JSON_BODY_ERRORS, ...UPSTREAM_ERRORS, ErrorCode.NotFound, ErrorCode.TestModeOnly)
  @UseGuards(TestModeOnlyGuard)
  @HttpCode(200)
  @ApiHeader(SWAP_TOKEN)
  @ApiOkResponse({ type: SwapResponse, description: 'The swap after the deposit.' })
  async deposit(
    @CurrentWidget() widget: WidgetCaller,
    @Param('id') id: string,
    @Headers('x-swap-token') token: string | undefined,
    @Body() body: TestDepositDto,
  ): Promise<SwapResponse> {
    return { swap: await this.swaps.deposit(widget, id, token, body) };
  }

  @Get('test_helpers/addresses')
  @ApiOperation({
    summary: 'Addresses to test with',
    description:
      'As `GET /v1/test_helpers/addresses`: the widget\u2019s "Use a test address". Test keys ' +
      'only: a live key gets 403 `test_mode_only`.',
  })
  @ApiErrors(
    ...UPSTREAM_ERRORS,
    ErrorCode.InvalidRequest,
    ErrorCode.PairUnsupported,
    ErrorCode.TestModeOnly,
  )
  @UseGuards(TestModeOnlyGuard)
  @ApiOkResponse({ type: TestAddressesResponse, description: 'Addresses of the currency.' })
  async testAddresses(@Query() query: TestAddressesQueryDto): Promise<TestAddressesResponse> {
    return { addresses: await this.helpers.addresses(query.currency) };
  }
}
