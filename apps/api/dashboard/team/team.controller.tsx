import { Get, Inject, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import {
  DashboardAccountsService,
  type DashboardRole,
  isDashboardRole,
  type SignedIn,
} from '#app/accounts';
import { ErrorCode } from '#app/errors';
import type { PageContext } from '../common/dashboard-request.js';
import { DASHBOARD_SETTINGS, type DashboardSettings } from '../common/dashboard.config.js';
import {
  CurrentUser,
  DashboardController,
  FormBody,
  Page,
  Roles,
} from '../common/dashboard.decorators.js';
import { FormAnswer } from '../common/form-answer.js';
import { emailProblem } from '../common/form-rules.js';
import { checked, submitForm } from '../common/page-form.js';
import { ReauthPrompts } from '../common/reauth.js';
import { Reauthenticated } from '../common/reauthenticated.js';
import { serviceOrigin } from '../../platform/site/origin.js';
import { TeamPage } from './team.page.js';

const PAGE = '/partner/team';
const BACK = { back: PAGE };
/** The refusals of a team change the person can act on: shown as the page's message. */
const REFUSALS = [ErrorCode.LastOwner, ErrorCode.EmailTaken, ErrorCode.NotFound];
const PURPOSE = 'to change the team';

/** The answer to a change: the own role changed or the own account removed ends this session. */
function changed(me: SignedIn, userId: string, text: string): FormAnswer {
  return userId === me.user.id
    ? FormAnswer.redirect('/partner/login')
    : FormAnswer.done(PAGE, text);
}

/** The Team page: owners invite, change roles and remove members (never the last owner). */
@DashboardController('team')
export class TeamController {
  constructor(
    private readonly accounts: DashboardAccountsService,
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
  @Reauthenticated(PURPOSE, BACK)
  invite(
    @CurrentUser() me: SignedIn,
    @FormBody() form: Record<string, string>,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const email = (form.email ?? '').trim();
    return submitForm({
      check: () =>
        checked(
          { email, role: form.role as DashboardRole },
          {
            email: emailProblem(email) ?? undefined,
            role: isDashboardRole(form.role) ? undefined : 'Choose a role.',
          },
        ),
      submit: (invitation) =>
        this.accounts.inviteToTeam(
          me.user,
          invitation,
          serviceOrigin(req, this.settings.publicUrl),
        ),
      refusals: REFUSALS,
      done: () => FormAnswer.done(PAGE, `Invitation sent to ${email}.`),
      refused: BACK,
    });
  }

  @Post(':userId/role')
  @Roles('owner')
  @Reauthenticated(PURPOSE, BACK)
  changeRole(
    @CurrentUser() me: SignedIn,
    @Param('userId') userId: string,
    @FormBody() form: Record<string, string>,
  ): Promise<FormAnswer> {
    const role = form.role as DashboardRole;
    return submitForm({
      check: () => checked(role, { role: isDashboardRole(role) ? undefined : 'Choose a role.' }),
      submit: (role) => this.accounts.changeRole(me.user, userId, role),
      refusals: REFUSALS,
      done: (member) => changed(me, member.id, `${member.email} is now ${role}.`),
      refused: BACK,
    });
  }

  @Post(':userId/remove')
  @Roles('owner')
  @Reauthenticated(PURPOSE, BACK)
  remove(@CurrentUser() me: SignedIn, @Param('userId') userId: string): Promise<FormAnswer> {
    return submitForm({
      submit: () => this.accounts.removeMember(me.user, userId),
      refusals: REFUSALS,
      done: () => changed(me, userId, 'Member removed.'),
      refused: BACK,
    });
  }
}
