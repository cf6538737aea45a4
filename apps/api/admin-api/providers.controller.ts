import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import { ProviderControlService } from '#app/provider-control';
import { ADMIN_ACTOR } from '../platform/auth/admin-actor.js';
import { AdminApi } from '../platform/auth/admin-api.decorator.js';
import { ApiErrors } from '../platform/contract/api-errors.decorator.js';
import { ProviderListResponse, ProviderResponse } from './dto/provider.response.js';

/** The liquidity providers routing uses: their health, and taking one out of routing. */
@ApiTags('admin')
@AdminApi()
@Controller('admin/providers')
export class AdminProvidersController {
  constructor(private readonly providers: ProviderControlService) {}

  @Get()
  @ApiOperation({
    summary: 'List providers',
    description:
      'Every provider of `PROVIDERS`, in its order: whether it is in routing, its circuit and ' +
      "its live-mode counts of the last 24 h across every replica (this replica's latest " +
      'seconds included).',
  })
  @ApiOkResponse({ type: ProviderListResponse, description: 'The providers.' })
  async list(): Promise<ProviderListResponse> {
    return { providers: await this.providers.list() };
  }

  @Post(':id/disable')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Take a provider out of routing',
    description:
      'No new quote or swap goes to it, on every replica within 5 s; its swaps keep being ' +
      'polled. Idempotent; audited. Disabling the last provider in routing answers 409 ' +
      '`conflict`.',
  })
  @ApiErrors(ErrorCode.NotFound, ErrorCode.Conflict)
  @ApiOkResponse({ type: ProviderResponse, description: 'The provider, out of routing.' })
  async disable(@Param('id') id: string): Promise<ProviderResponse> {
    return { provider: await this.providers.setEnabled(id, false, ADMIN_ACTOR) };
  }

  @Post(':id/enable')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Put a provider back into routing',
    description:
      'New quotes and swaps may go to it again, on every replica within 5 s. ' +
      'Idempotent; audited.',
  })
  @ApiErrors(ErrorCode.NotFound)
  @ApiOkResponse({ type: ProviderResponse, description: 'The provider, in routing.' })
  async enable(@Param('id') id: string): Promise<ProviderResponse> {
    return { provider: await this.providers.setEnabled(id, true, ADMIN_ACTOR) };
  }
}
