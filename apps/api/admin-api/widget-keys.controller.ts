import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import {
  assertWidgetKey,
  toCreatedWidgetKeyView,
  toWidgetKeyView,
  WidgetKeysService,
} from '#app/widgets';
import { ADMIN_ACTOR } from '../platform/auth/admin-actor.js';
import { AdminApi } from '../platform/auth/admin-api.decorator.js';
import { OrganizationIdPipe } from './admin-params.js';
import {
  CreateWidgetKeyDto,
  WidgetKeyListResponse,
  WidgetKeyResponse,
  CreatedWidgetKeyResponse,
} from './dto/widget-key.dto.js';
import { ApiErrors, JSON_BODY_ERRORS } from '../platform/contract/api-errors.decorator.js';

/** Create, list and revoke the publishable keys of an organization's swap widget; audited. */
@ApiTags('admin')
@AdminApi()
@Controller('admin')
export class AdminWidgetKeysController {
  constructor(private readonly widgetKeys: WidgetKeysService) {}

  @Post('organizations/:id/widget_keys')
  @ApiOperation({
    summary: 'Create a widget key',
    description:
      'A publishable `wk_live_`/`wk_test_` key for the swap widget, bound to 1 to 20 exact ' +
      'origins. Live keys need an active organization.',
  })
  @ApiErrors(...JSON_BODY_ERRORS, ErrorCode.NotFound)
  @ApiCreatedResponse({ type: CreatedWidgetKeyResponse, description: 'The new widget key.' })
  async create(
    @Param('id', OrganizationIdPipe) id: string,
    @Body() body: CreateWidgetKeyDto,
  ): Promise<CreatedWidgetKeyResponse> {
    const record = await this.widgetKeys.create(id, body, ADMIN_ACTOR);
    return { widgetKey: toCreatedWidgetKeyView(record) };
  }

  @Get('organizations/:id/widget_keys')
  @ApiOperation({
    summary: "List an organization's widget keys",
    description: 'Live and test widget keys, revoked ones included.',
  })
  @ApiErrors(ErrorCode.NotFound)
  @ApiOkResponse({ type: WidgetKeyListResponse, description: "The organization's widget keys." })
  async list(@Param('id', OrganizationIdPipe) id: string): Promise<WidgetKeyListResponse> {
    return { widgetKeys: (await this.widgetKeys.list(id)).map(toWidgetKeyView) };
  }

  @Post('widget_keys/:key/revoke')
  @ApiOperation({
    summary: 'Revoke a widget key',
    description: 'The key stops working on every replica within seconds; audited.',
  })
  @ApiErrors(ErrorCode.NotFound)
  @HttpCode(200)
  @ApiOkResponse({ type: WidgetKeyResponse, description: 'The revoked widget key.' })
  async revoke(@Param('key') key: string): Promise<WidgetKeyResponse> {
    const record = await this.widgetKeys.revoke(assertWidgetKey(key), ADMIN_ACTOR);
    return { widgetKey: toWidgetKeyView(record) };
  }
}
