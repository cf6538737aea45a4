import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import { OrganizationsService } from '#app/partners';
import { WebhookEndpointsService } from '#app/webhooks';
import { WebhookEndpointHealthListResponse } from '../platform/contract/webhook-endpoint.response.js';
import { ApiErrors } from '../platform/contract/api-errors.decorator.js';
import { AdminApi } from '../platform/auth/admin-api.decorator.js';
import { OrganizationIdPipe } from './admin-params.js';

@ApiTags('admin')
@AdminApi()
@Controller('admin/organizations/:id/webhook_endpoints')
export class AdminWebhookEndpointsController {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly endpoints: WebhookEndpointsService,
  ) {}

  @Get()
  @ApiOperation({
    summary: "An organization's webhook endpoints",
    description:
      'Both modes, with their health: deliveries pending, failed and delivered, the last attempt, and since when they fail or when they were disabled.',
  })
  @ApiErrors(ErrorCode.NotFound)
  @ApiOkResponse({
    type: WebhookEndpointHealthListResponse,
    description: 'The endpoints with their health.',
  })
  async list(
    @Param('id', OrganizationIdPipe) id: string,
  ): Promise<WebhookEndpointHealthListResponse> {
    await this.organizations.get(id);
    return { webhookEndpoints: await this.endpoints.healthOfOrganization(id) };
  }
}
