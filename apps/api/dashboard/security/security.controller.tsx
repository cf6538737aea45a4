import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  DashboardAccountsService,
  DashboardAudit,
  DashboardSessionsService,
  ReauthenticationService,
  type SignedIn,
} from '#app/accounts';
import { AppError } from '#app/errors';
import { dashboardCookie, SESSION_COOKIE } from '../common/cookies.js';
import type { PageContext } from '../common/dashboard-request.js';
import {
  AnyRole,
  CurrentUser,
  DashboardController,
  FormBody,
  Page,
} from '../common/dashboard.decorators.js';
import { setFlash } from '../common/flash.js';
import { passwordFieldProblem } from '../common/form-rules.js';
import { ReauthPrompts, reauthRefusalText } from '../common/reauth.js';
import { SeeOther } from '../common/see-other.js';
import { SecondFactorsSection } from '../second-factors/second-factors.components.js';
import { SecurityPage } from './security.page.js';

const BACK = new SeeOther('/partner/security');

/** The Security page: the user's own sessions and password. */
@DashboardController('security')
export class SecurityController {
  constructor(
    private readonly sessions: DashboardSessionsService,
    private readonly accounts: DashboardAccountsService,
    private readonly reauth: ReauthenticationService,
    private readonly audit: DashboardAudit,
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
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    if (!(await this.sessions.endForUser(sessionId, me.user.id))) {
      setFlash(req, res, { kind: 'error', text: 'That session has ended already.' });
      throw BACK;
    }
    await this.audit.record(me.user, 'session.ended', { type: 'session', id: sessionId });
    if (sessionId === me.session.id) {
      res.clearCookie(SESSION_COOKIE, dashboardCookie(req));
      setFlash(req, res, { kind: 'info', text: 'You are signed out.' });
      throw new SeeOther('/partner/login');
    }
    setFlash(req, res, { kind: 'success', text: 'Session ended.' });
    throw BACK;
  }

  @Post('password')
  @AnyRole()
  async changePassword(
    @CurrentUser() me: SignedIn,
    @FormBody() form: Record<string, string>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    const password = form.newPassword ?? '';
    const problem = passwordFieldProblem(password);
    if (problem) {
      setFlash(req, res, { kind: 'error', text: problem });
      throw BACK;
    }
    const confirmed = await this.reauth.ensure(me, form, req.ip ?? 'unknown');
    if (!confirmed.ok) {
      setFlash(req, res, {
        kind: 'error',
        text: reauthRefusalText(confirmed, 'to change your password'),
      });
      throw BACK;
    }
    try {
      await this.accounts.changePassword(me.user, me.session.id, password);
    } catch (error: unknown) {
      if (error instanceof AppError && error.param === 'password') {
        setFlash(req, res, { kind: 'error', text: error.message });
        throw BACK;
      }
      throw error;
    }
    // A credential change: this session continues under a new id.
    res.cookie(SESSION_COOKIE, await this.sessions.rotate(me.session), dashboardCookie(req));
    setFlash(req, res, {
      kind: 'success',
      text: 'Password changed. Your other sessions ended.',
    });
    throw BACK;
  }
}
