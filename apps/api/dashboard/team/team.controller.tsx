import { Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  DashboardAccountsService,
  isDashboardRole,
  ReauthenticationService,
  type SignedIn,
} from '#app/accounts';
import { AppError, ErrorCode } from '#app/errors';
import type { PageContext } from '../common/dashboard-request.js';
import { DASHBOARD_SETTINGS, type DashboardSettings } from '../common/dashboard.config.js';
import {
  CurrentUser,
  DashboardController,
  FormBody,
  Page,
  Roles,
} from '../common/dashboard.decorators.js';
import { setFlash } from '../common/flash.js';
import { emailProblem } from '../common/form-rules.js';
import { ReauthPrompts, reauthRefusalText } from '../common/reauth.js';
import { serviceOrigin } from '../../platform/site/origin.js';
import { SeeOther } from '../common/see-other.js';
import { TeamPage } from './team.page.js';

const BACK = new SeeOther('/partner/team');

/** The Team page: owners invite, change roles and remove members (never the last owner). */
@DashboardController('team')
export class TeamController {
  constructor(
    private readonly accounts: DashboardAccountsService,
    private readonly reauth: ReauthenticationService,
    private readonly prompts: ReauthPrompts,
    @Inject(DASHBOARD_SETTINGS) private readonly settings: DashboardSettings,
  ) {}

  @Get()
  @Roles('owner')
  async page(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @Req() req: Request,
  ): Promise<JSX.Element> {
    const [users, invitations, reauth] = await Promise.all([
      this.accounts.listUsers(me.organization.id),
      this.accounts.listOpenInvitations(me.organization.id),
      this.prompts.for(me, req),
    ]);
    return (
      <TeamPage ctx={ctx} signedIn={me} users={users} invitations={invitations} reauth={reauth} />
    );
  }

  @Post('invitations')
  @Roles('owner')
  async invite(
    @CurrentUser() me: SignedIn,
    @FormBody() form: Record<string, string>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    const email = (form.email ?? '').trim();
    const problem = emailProblem(email) ?? (isDashboardRole(form.role) ? null : 'Choose a role.');
    if (problem) {
      return this.back(req, res, problem);
    }
    await this.confirmed(me, form, req, res);
    await this.attempt(req, res, async () => {
      await this.accounts.inviteToTeam(
        {
          organizationId: me.organization.id,
          email,
          role: form.role as 'owner',
          invitedBy: `dashboard:${me.user.email}`.slice(0, 128),
        },
        serviceOrigin(req, this.settings.publicUrl),
      );
      await this.accounts.recordTeamInvitation(me.user, email, form.role);
      return `Invitation sent to ${email}.`;
    });
  }

  @Post(':userId/role')
  @Roles('owner')
  async changeRole(
    @CurrentUser() me: SignedIn,
    @Param('userId') userId: string,
    @FormBody() form: Record<string, string>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    if (!isDashboardRole(form.role)) {
      return this.back(req, res, 'Choose a role.');
    }
    const role = form.role;
    await this.confirmed(me, form, req, res);
    await this.attempt(req, res, async () => {
      const changed = await this.accounts.changeRole(me.user, userId, role);
      if (changed.id === me.user.id) {
        // Own role changed: this session ended with the others, as for any role change.
        throw new SeeOther('/partner/login');
      }
      return `${changed.email} is now ${role}.`;
    });
  }

  @Post(':userId/remove')
  @Roles('owner')
  async remove(
    @CurrentUser() me: SignedIn,
    @Param('userId') userId: string,
    @FormBody() form: Record<string, string>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    await this.confirmed(me, form, req, res);
    await this.attempt(req, res, async () => {
      await this.accounts.removeMember(me.user, userId);
      if (userId === me.user.id) {
        throw new SeeOther('/partner/login');
      }
      return 'Member removed.';
    });
  }

  /** Runs a team change; a refusal the person can act on comes back as a message on the page. */
  private async attempt(req: Request, res: Response, change: () => Promise<string>) {
    let message: string;
    try {
      message = await change();
    } catch (error: unknown) {
      if (
        error instanceof AppError &&
        [ErrorCode.LastOwner, ErrorCode.EmailTaken, ErrorCode.NotFound].includes(error.code)
      ) {
        return this.back(req, res, error.message);
      }
      throw error;
    }
    setFlash(req, res, { kind: 'success', text: message });
    throw BACK;
  }

  /** Re-authenticated within 5 minutes, or by a proof in this very form; else back. */
  private async confirmed(
    me: SignedIn,
    form: Record<string, string>,
    req: Request,
    res: Response,
  ): Promise<void> {
    const confirmed = await this.reauth.ensure(me, form, req.ip ?? 'unknown');
    if (!confirmed.ok) {
      this.back(req, res, reauthRefusalText(confirmed, 'to change the team'));
    }
  }

  private back(req: Request, res: Response, error: string): never {
    setFlash(req, res, { kind: 'error', text: error });
    throw BACK;
  }
}
