import { Body, Controller, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '#app/errors';
import {
  OrganizationsService,
  toNewOrganization,
  toOrganizationPatch,
  toOrganizationView,
} from '#app/partners';
import { ADMIN_ACTOR } from '../platform/auth/admin-actor.js';
import { AdminApi } from '../platform/auth/admin-api.decorator.js';
import { OrganizationIdPipe } from './admin-params.js';
import { CreateOrganizationDto } from './dto/create-organization.dto.js';
import { OrganizationListResponse, OrganizationResponse } from './dto/organization.response.js';
import { UpdateOrganizationDto } from './dto/update-organization.dto.js';
import { ApiErrors, JSON_BODY_ERRORS } from '../platform/contract/api-errors.decorator.js';

@ApiTags('admin')
@AdminApi()
@Controller('admin/organizations')
export class AdminOrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Post()
  @ApiOperation({
    summary: 'Create an organization',
    description: 'Registers a partner organization; it starts `pending_review`.',
  })
  @ApiErrors(...JSON_BODY_ERRORS, ErrorCode.InvalidAddress)
  @ApiCreatedResponse({ type: OrganizationResponse, description: 'The new organization.' })
  async create(@Body() dto: CreateOrganizationDto): Promise<OrganizationResponse> {
    const organization = await this.organizations.create(toNewOrganization(dto), ADMIN_ACTOR);
    return { organization: toOrganizationView(organization) };
  }

  @Get()
  @ApiOperation({
    summary: 'List organizations',
    description: 'Every organization, with its status and fee.',
  })
  @ApiOkResponse({ type: OrganizationListResponse, description: 'The organizations.' })
  async list(): Promise<OrganizationListResponse> {
    const organizations = await this.organizations.list();
    return { organizations: organizations.map(toOrganizationView) };
  }

  @Get(':id')
  @ApiOperation({
    summary: 'Get an organization',
    description: 'One organization by id.',
  })
  @ApiErrors(ErrorCode.NotFound)
  @ApiOkResponse({ type: OrganizationResponse, description: 'The organization.' })
  async get(@Param('id', OrganizationIdPipe) id: string): Promise<OrganizationResponse> {
    const organization = await this.organizations.get(id);
    return { organization: toOrganizationView(organization) };
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update an organization',
    description:
      'Changes status (approve, suspend, reject), fee, payout address or provider activation; audited.',
  })
  @ApiErrors(...JSON_BODY_ERRORS, ErrorCode.NotFound, ErrorCode.InvalidAddress)
  @ApiOkResponse({ type: OrganizationResponse, description: 'The organization as updated.' })
  async update(
    @Param('id', OrganizationIdPipe) id: string,
    @Body() dto: UpdateOrganizationDto,
  ): Promise<OrganizationResponse> {
    const organization = await this.organizations.update(id, toOrganizationPatch(dto), ADMIN_ACTOR);
    return { organization: toOrganizationView(organization) };
  }
}
