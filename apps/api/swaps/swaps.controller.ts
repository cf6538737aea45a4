import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthenticatedPartner } from '#app/partners';
import { SwapCreationService, SwapQueryService } from '#app/swaps';
import { CurrentPartner } from '../auth/current-partner.decorator.js';
import { PartnerApi } from '../auth/partner-api.decorator.js';
import { RequiresProviderActivation } from '../auth/partner-access.guard.js';
import { CreateSwapDto } from './dto/create-swap.dto.js';
import { ListSwapsDto } from './dto/list-swaps.dto.js';
import { SwapListResponse, SwapResponse } from './dto/swap.response.js';

@ApiTags('swaps')
@PartnerApi()
@Controller('v1/swaps')
export class SwapsController {
  constructor(
    private readonly creation: SwapCreationService,
    private readonly queries: SwapQueryService,
  ) {}

  @Post()
  @HttpCode(201)
  @RequiresProviderActivation()
  @ApiHeader({ name: 'Idempotency-Key', required: true, description: 'UUID v4' })
  @ApiCreatedResponse({ type: SwapResponse })
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
  @ApiOkResponse({ type: SwapListResponse })
  async list(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Query() query: ListSwapsDto,
  ): Promise<SwapListResponse> {
    const swaps = await this.queries.list(partner, {
      limit: query.limit ?? 50,
      offset: query.offset ?? 0,
      partnerReferenceId: query.partnerReferenceId,
    });
    return { swaps };
  }

  @Get(':id')
  @ApiOkResponse({ type: SwapResponse })
  async get(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Param('id') id: string,
  ): Promise<SwapResponse> {
    return { swap: await this.queries.get(id, partner) };
  }
}
