import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import {
  DashboardAccountsService,
  isUuid,
  toDashboardUserView,
  toInvitationView,
} from '#app/accounts';
import { DASHBOARD_CONFIG, InjectConfig, type DashboardConfig } from '#app/config';
import { AppError, ErrorCode } from '#app/errors';
import { OrganizationsService } from '#app/partners';
import { ApiErrors, JSON_BODY_ERRORS } from '../platform/contract/api-errors.decorator.js';
import { serviceOrigin } from '../platform/site/origin.js';
import { ADMIN_ACTOR } from '../platform/auth/admin-actor.js';
import { AdminApi } from '../platform/auth/admin-api.decorator.js';
import { OrganizationIdPipe } from './admin-params.js';
import { CreateInvitationDto } from './dto/create-invitation.dto.js';
import {
  DashboardUserListResponse,
  DashboardUserResponse,
  InvitationResponse,
} from './dto/dashboard-user.response.js';

/** Operators manage who signs in to an organization's partner dashboard. */
@ApiTags('admin')
@AdminApi()
@Controller('admin')
export class AdminDashboardUsersController {
  constructor(
    private readonly accounts: DashboardAccountsService,
    private readonly organizations: OrganizationsService,
    @InjectConfig(DASHBOARD_CONFIG) private readonly site: DashboardConfig,
  ) {}

  @Get('organizations/:id/users')
  @ApiOperation({
    summary: "List an organization's dashboard users",
    description: 'Email, role and state of each user; never a password hash.',
  })
  @ApiErrors(ErrorCode.NotFound)
  @ApiOkResponse({ type: DashboardUserListResponse, description: 'The users.' })
  async list(@Param('id', OrganizationIdPipe) id: string): Promise<DashboardUserListResponse> {
    await this.organizations.get(id);
    return { users: (await this.accounts.listUsers(id)).map(toDashboardUserView) };
  }

  @Post('organizations/:id/invitations')
  @ApiOperation({
    summary: 'Invite a dashboard user',
    description:
      'Mails a single-use link, valid 7 days, that sets the password; the answer carries the ' +
      'link too. An email that already has a user answers 409 `email_taken`.',
  })
  @ApiErrors(...JSON_BODY_ERRORS, ErrorCode.NotFound, ErrorCode.EmailTaken)
  @ApiCreatedResponse({ type: InvitationResponse, description: 'The invitation.' })
  async invite(
    @Param('id', OrganizationIdPipe) id: string,
    @Body() dto: CreateInvitationDto,
    @Req() req: Request,
  ): Promise<InvitationResponse> {
    const { invitation, url } = await this.accounts.invite(
      { organizationId: id, email: dto.email, role: dto.role, invitedBy: ADMIN_ACTOR },
      serviceOrigin(req, this.site.publicUrl),
    );
    return { invitation: toInvitationView(invitation, url) };
  }

  @Post('users/:id/disable')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Disable a dashboard user',
    description: 'The user can no longer sign in and every session of theirs ends now; audited.',
  })
  @ApiErrors(ErrorCode.NotFound)
  @ApiOkResponse({ type: DashboardUserResponse, description: 'The user, disabled.' })
  async disable(@Param('id') id: string): Promise<DashboardUserResponse> {
    if (!isUuid(id)) {
      throw new AppError(ErrorCode.NotFound, 'User not found.');
    }
    return { user: toDashboardUserView(await this.accounts.disableUser(id, ADMIN_ACTOR)) };
  }
}
