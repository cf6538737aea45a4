import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import type { Response } from 'express';
import type { AuthenticatedPartner } from '#app/partners';
import { SwapCreationService, SwapQueryService, UUID_V4 } from '#app/swaps';
import { CurrentPartner } from '../../platform/auth/current-partner.decorator.js';
import { PartnerApi } from '../../platform/auth/partner-api.decorator.js';
import { RequiresProviderActivation } from '../../platform/auth/partner-access.guard.js';
import { CreateSwapDto } from '../../platform/contract/create-swap.dto.js';
import { ListSwapsDto } from './dto/list-swaps.dto.js';
import { SwapListResponse, SwapResponse } from '../../platform/contract/swap.response.js';
import {
  ApiErrors,
  JSON_BODY_ERRORS,
  UPSTREAM_ERRORS,
} from '../../platform/contract/api-errors.decorator.js';

@ApiTags('swaps')
@PartnerApi()
@Controller('v1/swaps')
export class SwapsController {
  constructor(
    private readonly creation: SwapCreationService,
    private readonly queries: SwapQueryService,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Create a swap',
    description:
      'Creates a swap from a quote (float) or a rate id (fixed) and answers the deposit address. ' +
      'Safe to retry with the same `Idempotency-Key`: the replay answers the same swap with ' +
      '`Idempotent-Replayed: true`. A test credential creates a test swap (`livemode: false`) on ' +
      'the sandbox, which the test helpers drive.',
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
  @RequiresProviderActivation()
  @ApiHeader({
    name: 'Idempotency-Key',
    required: true,
    description:
      'A UUID v4 of yours, new for each swap you mean to create and the same on every retry of ' +
      'it (kept 24 h per credential). The structured-field quoted form (`"…"`) is accepted too.',
    schema: { type: 'string', format: 'uuid', pattern: UUID_V4.source },
  })
  @ApiCreatedResponse({
    type: SwapResponse,
    description: 'The new swap (or, on a replay, the swap the key created).',
  })
  async create(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Body() body: CreateSwapDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SwapResponse> {
    const { swap, replayed } = await this.creation.create(partner, idempotencyKey, body);
    if (replayed) {
      res.setHeader('Idempotent-Replayed', 'true');
    }
    return { swap };
  }

  @Get()
  @ApiOperation({
    summary: 'List swaps',
    description:
      "Your organization's swaps of the credential's mode (live or test), newest first, " +
      'optionally only those of one `partnerReferenceId`. Page with `startingAfter` (the last ' +
      'id of the page before) to walk every swap once, or with `offset`.',
  })
  @ApiErrors(ErrorCode.InvalidRequest)
  @ApiOkResponse({ type: SwapListResponse, description: 'The swaps.' })
  async list(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Query() query: ListSwapsDto,
  ): Promise<SwapListResponse> {
    const swaps = await this.queries.list(partner, { ...query, limit: query.limit ?? 50 });
    return { swaps };
  }

  @Get(':id')
  @ApiOperation({
    summary: 'Get a swap',
    description:
      'The swap as last refreshed from the provider. A swap of another organization or of the ' +
      'other mode answers 404. Poll this until `status` is terminal.',
  })
  @ApiErrors(ErrorCode.NotFound)
  @ApiOkResponse({ type: SwapResponse, description: 'The swap.' })
  async get(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Param('id') id: string,
  ): Promise<SwapResponse> {
    return { swap: await this.queries.get(id, partner) };
  }
}
