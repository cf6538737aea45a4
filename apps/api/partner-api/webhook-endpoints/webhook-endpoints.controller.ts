import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import type { AuthenticatedPartner } from '#app/partners';
import { ApiErrors, JSON_BODY_ERRORS } from '../../platform/contract/api-errors.decorator.js';
import { WebhookEndpointsService } from '#app/webhooks';
import { CurrentPartner } from '../../platform/auth/current-partner.decorator.js';
import { EmptyBodyDto } from './dto/empty-body.dto.js';
import { PartnerApi } from '../../platform/auth/partner-api.decorator.js';
import {
  CreateWebhookEndpointDto,
  ListDeliveriesDto,
  UpdateWebhookEndpointDto,
} from './dto/webhook-endpoint.dto.js';
import {
  WebhookAttemptListResponse,
  WebhookEndpointListResponse,
  WebhookEndpointResponse,
  WebhookPingResponse,
} from '../../platform/contract/webhook-endpoint.response.js';

const DEFAULT_ATTEMPTS = 20;

@ApiTags('webhook endpoints')
@PartnerApi()
@Controller('v1/webhook_endpoints')
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a webhook endpoint',
    description:
      "Events of this credential's mode are sent to the URL, signed with the secret in this answer (shown only here). At most 10 per organization and mode.",
  })
  @ApiErrors(...JSON_BODY_ERRORS)
  @ApiCreatedResponse({
    type: WebhookEndpointResponse,
    description: 'The new endpoint, with its secret (shown only here).',
  })
  async create(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Body() body: CreateWebhookEndpointDto,
  ): Promise<WebhookEndpointResponse> {
    return { webhookEndpoint: await this.endpoints.create(partner, body) };
  }

  @Get()
  @ApiOperation({ summary: 'List webhook endpoints', description: "This mode's endpoints." })
  @ApiOkResponse({ type: WebhookEndpointListResponse, description: "This mode's endpoints." })
  async list(
    @CurrentPartner() partner: AuthenticatedPartner,
  ): Promise<WebhookEndpointListResponse> {
    return { webhookEndpoints: await this.endpoints.list(partner) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a webhook endpoint', description: 'Without its secret.' })
  @ApiErrors(ErrorCode.NotFound)
  @ApiOkResponse({ type: WebhookEndpointResponse, description: 'The endpoint.' })
  async get(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Param('id') id: string,
  ): Promise<WebhookEndpointResponse> {
    return { webhookEndpoint: await this.endpoints.get(id, partner) };
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change a webhook endpoint',
    description: 'url, events, description, enabled; re-enabling resumes deliveries.',
  })
  @ApiErrors(...JSON_BODY_ERRORS, ErrorCode.NotFound)
  @ApiOkResponse({ type: WebhookEndpointResponse, description: 'The endpoint as changed.' })
  async update(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Param('id') id: string,
    @Body() body: UpdateWebhookEndpointDto,
  ): Promise<WebhookEndpointResponse> {
    return { webhookEndpoint: await this.endpoints.update(id, partner, body) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a webhook endpoint',
    description: 'Nothing more is sent to it.',
  })
  @ApiErrors(ErrorCode.NotFound)
  @ApiNoContentResponse({ description: 'Deleted.' })
  async delete(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Param('id') id: string,
  ): Promise<void> {
    await this.endpoints.delete(id, partner);
  }

  @Post(':id/rotate_secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rotate the signing secret',
    description:
      'Answers the new secret; for 24 h every webhook carries a signature by each of the two secrets.',
  })
  @ApiErrors(...JSON_BODY_ERRORS, ErrorCode.NotFound)
  @ApiBody({ type: EmptyBodyDto, description: '`{}`' })
  @ApiOkResponse({
    type: WebhookEndpointResponse,
    description: 'The endpoint with its new secret (shown only here).',
  })
  async rotateSecret(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Param('id') id: string,
    @Body() _body: EmptyBodyDto,
  ): Promise<WebhookEndpointResponse> {
    return { webhookEndpoint: await this.endpoints.rotateSecret(id, partner) };
  }

  @Get(':id/deliveries')
  @ApiOperation({
    summary: 'Latest delivery attempts',
    description: 'Newest first: event id, attempt number, HTTP status or error, duration, time.',
  })
  @ApiErrors(ErrorCode.InvalidRequest, ErrorCode.NotFound)
  @ApiOkResponse({ type: WebhookAttemptListResponse, description: 'The latest attempts.' })
  async deliveries(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Param('id') id: string,
    @Query() query: ListDeliveriesDto,
  ): Promise<WebhookAttemptListResponse> {
    return {
      deliveries: await this.endpoints.attempts(id, partner, query.limit ?? DEFAULT_ATTEMPTS),
    };
  }

  @Post(':id/ping')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a test event',
    description:
      'Sends a signed `endpoint.ping` event at once and answers what the endpoint said. It is neither stored nor retried.',
  })
  @ApiErrors(...JSON_BODY_ERRORS, ErrorCode.NotFound)
  @ApiBody({ type: EmptyBodyDto, description: '`{}`' })
  @ApiOkResponse({ type: WebhookPingResponse, description: 'What the endpoint answered.' })
  async ping(
    @CurrentPartner() partner: AuthenticatedPartner,
    @Param('id') id: string,
    @Body() _body: EmptyBodyDto,
  ): Promise<WebhookPingResponse> {
    return { delivery: await this.endpoints.ping(id, partner) };
  }
}
