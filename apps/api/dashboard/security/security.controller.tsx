import { Get, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { DashboardAccountsService, DashboardSessionsService, type SignedIn } from '#app/accounts';
import type { PageContext } from '../common/dashboard-request.js';
import {
  AnyRole,
  CurrentUser,
  DashboardController,
  FormBody,
  Page,
} from '../common/dashboard.decorators.js';
import { FormAnswer } from '../common/form-answer.js';
import { passwordFieldProblem } from '../common/form-rules.js';
import { checked, submitForm } from '../common/page-form.js';
import { ReauthPrompts } from '../common/reauth.js';
import { Reauthenticated } from '../common/reauthenticated.js';
import { SecondFactorsSection } from '../second-factors/second-factors.components.js';
import { SecurityPage } from './security.page.js';

const PAGE = '/partner/security';

/** The Security page: the user's own sessions and password. */
@DashboardController('security')
export class SecurityController {
  constructor(
    private readonly sessions: DashboardSessionsService,
    private readonly accounts: DashboardAccountsService,
    private readonly prompts: ReauthPrompts,
  ) {}

  @Get()
  @AnyRole()
  async page(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @Req() req: Request,
  ): Promise<JSX.Element> {
    return (
      <SecurityPage
        ctx={ctx}
        signedIn={me}
        sessions={await this.sessions.listForUser(me.user.id)}
        reauth={await this.prompts.for(me, req)}
        sections={<SecondFactorsSection />}
      />
    );
  }

  @Post('sessions/:sessionId/end')
  @AnyRole()
  async endSession(
    @CurrentUser() me: SignedIn,
    @Param('sessionId') sessionId: string,
  ): Promise<FormAnswer> {
    if (!(await this.sessions.endForUser(sessionId, me.user))) {
      return FormAnswer.refused(PAGE, 'That session has ended already.');
    }
    if (sessionId === me.session.id) {
      return FormAnswer.redirect('/partner/login', {
        kind: 'info',
        text: 'You are signed out.',
      }).withSession(null);
    }
    return FormAnswer.done(PAGE, 'Session ended.');
  }

  @Post('password')
  @AnyRole()
  @Reauthenticated('to change your password', { back: PAGE })
  changePassword(
    @CurrentUser() me: SignedIn,
    @FormBody() form: Record<string, string>,
  ): Promise<FormAnswer> {
    const password = form.newPassword ?? '';
    return submitForm({
      check: () => checked(password, { newPassword: passwordFieldProblem(password) ?? undefined }),
      submit: async (password) => {
        await this.accounts.changePassword(me.user, me.session.id, password);
        // A credential change: this session continues under a new id.
        return this.sessions.rotate(me.session);
      },
      refusals: (error) => error.param === 'password',
      done: (token) =>
        FormAnswer.done(PAGE, 'Password changed. Your other sessions ended.').withSession(token),
      refused: { back: PAGE },
    });
  }
}
