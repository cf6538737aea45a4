import { Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  AccountRequestsLimiter,
  DashboardAccountsService,
  DashboardAudit,
  DashboardSessionsService,
  type DashboardUser,
  type SignedIn,
  SignInThrottle,
} from '#app/accounts';
import { normalizeFeePercent, type CredentialMode } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { dashboardCookie, readCookie, SESSION_COOKIE } from '../common/cookies.js';
import type { PageContext } from '../common/dashboard-request.js';
import {
  AnyRole,
  CurrentUser,
  DashboardController,
  FormBody,
  Page,
  PublicPage,
} from '../common/dashboard.decorators.js';
import { DASHBOARD_SETTINGS, type DashboardSettings } from '../common/dashboard.config.js';
import { setFlash } from '../common/flash.js';
import { retryAfterSeconds } from '../common/retry-after.js';
import { emailProblem, passwordFieldProblem, textProblem } from '../common/form-rules.js';
import { safeNext, serviceOrigin } from '../../platform/site/origin.js';
import { SeeOther } from '../common/see-other.js';
import { SECOND_FACTOR_STEP, type SignInStep } from '../common/sign-in-steps.js';
import {
  AccountExistsPage,
  ConfirmApplicationPage,
  LinkGonePage,
  LoginPage,
  SetPasswordPage,
  SignupPage,
  SignupSentPage,
  type SignupValues,
} from './accounts.pages.js';

/** The one answer to every failed sign-in, whatever failed. */
export const SIGN_IN_FAILED = 'Email or password is incorrect.';

type Form = Record<string, string>;

/**
 * Getting in and out: sign-in, applying (sign-up, confirmed from a mailed link), accepting an
 * invitation, sign-out, and the "Test mode" switch.
 */
@DashboardController()
export class AccountsController {
  constructor(
    private readonly accounts: DashboardAccountsService,
    private readonly limiter: AccountRequestsLimiter,
    private readonly sessions: DashboardSessionsService,
    private readonly throttle: SignInThrottle,
    private readonly audit: DashboardAudit,
    @Inject(SECOND_FACTOR_STEP) private readonly secondFactor: SignInStep,
    @Inject(DASHBOARD_SETTINGS) private readonly settings: DashboardSettings,
  ) {}

  @Get('login')
  @PublicPage()
  login(@Page() ctx: PageContext, @Query('next') next: unknown): JSX.Element {
    if (ctx.signedIn) {
      throw new SeeOther(safeNext(next));
    }
    return <LoginPage ctx={ctx} next={safeNext(next)} />;
  }

  @Post('login')
  @PublicPage()
  @HttpCode(200)
  async signIn(
    @Page() ctx: PageContext,
    @FormBody() form: Form,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JSX.Element> {
    const email = (form.email ?? '').trim();
    const password = form.password ?? '';
    const next = safeNext(form.next);
    const refuse = (status: number, error: string): JSX.Element => {
      res.status(status);
      return <LoginPage ctx={ctx} email={email.slice(0, 254)} next={next} error={error} />;
    };
    const valid =
      emailProblem(email) === null &&
      passwordFieldProblem(password) === null &&
      password.length <= 1024;
    const attempt = await this.throttle.attempt(email, req.ip ?? 'unknown', () =>
      valid ? this.accounts.authenticate(email, password) : Promise.resolve(null),
    );
    if (attempt.throttled) {
      res.setHeader('Retry-After', retryAfterSeconds(attempt.retryAfterMs));
      return refuse(429, 'Too many failed sign-ins. Wait a few minutes, then try again.');
    }
    const user = attempt.result;
    if (!user) {
      return refuse(401, SIGN_IN_FAILED);
    }
    const step = await this.secondFactor.begin(user, next, req, res);
    if (step !== null) {
      throw new SeeOther(step);
    }
    await this.startSession(req, res, user, ctx.signedIn);
    throw new SeeOther(next);
  }

  @Get('signup')
  @PublicPage()
  signupPage(@Page() ctx: PageContext): JSX.Element {
    if (ctx.signedIn) {
      throw new SeeOther('/partner');
    }
    return <SignupPage ctx={ctx} values={{}} errors={{}} />;
  }

  @Post('signup')
  @PublicPage()
  @HttpCode(200)
  async signUp(
    @Page() ctx: PageContext,
    @FormBody() form: Form,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JSX.Element> {
    const values: Required<SignupValues> = {
      organizationName: (form.organizationName ?? '').trim(),
      email: (form.email ?? '').trim(),
      feePercent: (form.feePercent ?? '').trim(),
    };
    const password = form.password ?? '';
    const feePercent = normalizeFeePercent(values.feePercent);
    const errors: Partial<Record<keyof SignupValues | 'password', string>> = {};
    const orgProblem = textProblem(values.organizationName, 'the organization name', 200);
    if (orgProblem) {
      errors.organizationName = orgProblem;
    }
    const mailProblem = emailProblem(values.email);
    if (mailProblem) {
      errors.email = mailProblem;
    }
    const passwordProblem = passwordFieldProblem(password);
    if (passwordProblem) {
      errors.password = passwordProblem;
    }
    if (feePercent === null) {
      errors.feePercent = 'Enter a fee from 0 to 4 percent, like 1 or 0.5.';
    }
    const again = (status: number, error?: string): JSX.Element => {
      res.status(status);
      const shown = {
        ...values,
        organizationName: values.organizationName.slice(0, 200),
        email: values.email.slice(0, 254),
        feePercent: values.feePercent.slice(0, 20),
      };
      return <SignupPage ctx={ctx} values={shown} errors={errors} error={error} />;
    };
    if (Object.keys(errors).length > 0 || feePercent === null) {
      return again(400);
    }
    const waitMs = await this.limiter.admit('signUp', values.email, req.ip ?? 'unknown');
    if (waitMs > 0) {
      res.setHeader('Retry-After', String(Math.ceil(waitMs / 1000)));
      return again(
        429,
        'Too many applications from your network or for this email. Wait a while, then try again.',
      );
    }
    try {
      await this.accounts.apply(
        {
          organizationName: values.organizationName,
          email: values.email,
          password,
          feePercent,
        },
        serviceOrigin(req, this.settings.publicUrl),
      );
    } catch (error: unknown) {
      if (error instanceof AppError && error.param === 'password') {
        errors.password = error.message;
        return again(400);
      }
      throw error;
    }
    throw new SeeOther('/partner/signup/sent');
  }

  @Get('signup/sent')
  @PublicPage()
  signupSent(@Page() ctx: PageContext): JSX.Element {
    return <SignupSentPage ctx={ctx} />;
  }

  @Get('signup/confirm/:token')
  @PublicPage()
  async confirmationPage(
    @Page() ctx: PageContext,
    @Param('token') token: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JSX.Element> {
    const application = await this.accounts.findOpenApplication(token);
    if (!application) {
      res.status(404);
      return <LinkGonePage ctx={ctx} what="application" />;
    }
    return (
      <ConfirmApplicationPage
        ctx={ctx}
        token={token}
        email={application.email}
        organizationName={application.organizationName}
      />
    );
  }

  @Post('signup/confirm/:token')
  @PublicPage()
  @HttpCode(200)
  async confirmApplication(
    @Page() ctx: PageContext,
    @Param('token') token: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JSX.Element> {
    let user: DashboardUser;
    try {
      ({ user } = await this.accounts.confirmApplication(token));
    } catch (error: unknown) {
      if (error instanceof AppError && error.code === ErrorCode.NotFound) {
        res.status(404);
        return <LinkGonePage ctx={ctx} what="application" />;
      }
      if (error instanceof AppError && error.code === ErrorCode.EmailTaken) {
        res.status(409);
        return <AccountExistsPage ctx={ctx} />;
      }
      throw error;
    }
    await this.startSession(req, res, user, ctx.signedIn);
    setFlash(req, res, {
      kind: 'success',
      text: 'Application received. We review it shortly; meanwhile you can use test mode.',
    });
    throw new SeeOther('/partner');
  }

  @Get('invitations/:token')
  @PublicPage()
  async invitationPage(
    @Page() ctx: PageContext,
    @Param('token') token: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JSX.Element> {
    const invitation = await this.accounts.findOpenInvitation(token);
    if (!invitation) {
      res.status(404);
      return <LinkGonePage ctx={ctx} what="invitation" />;
    }
    return (
      <SetPasswordPage
        ctx={ctx}
        title="Accept the invitation"
        intro={`You are invited as ${invitation.role} (${invitation.email}). Choose your password to join.`}
        action={`/partner/invitations/${token}`}
        email={invitation.email}
        button="Set password and join"
      />
    );
  }

  @Post('invitations/:token')
  @PublicPage()
  @HttpCode(200)
  async acceptInvitation(
    @Page() ctx: PageContext,
    @Param('token') token: string,
    @FormBody() form: Form,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JSX.Element> {
    const invitation = await this.accounts.findOpenInvitation(token);
    if (!invitation) {
      res.status(404);
      return <LinkGonePage ctx={ctx} what="invitation" />;
    }
    const password = form.password ?? '';
    const again = (error: string): JSX.Element => {
      res.status(400);
      return (
        <SetPasswordPage
          ctx={ctx}
          title="Accept the invitation"
          intro={`You are invited as ${invitation.role} (${invitation.email}). Choose your password to join.`}
          action={`/partner/invitations/${token}`}
          email={invitation.email}
          button="Set password and join"
          error={error}
        />
      );
    };
    const problem = passwordFieldProblem(password);
    if (problem) {
      return again(problem);
    }
    let user: DashboardUser;
    try {
      user = await this.accounts.acceptInvitation(token, password);
    } catch (error: unknown) {
      if (error instanceof AppError && error.param === 'password') {
        return again(error.message);
      }
      if (error instanceof AppError && error.code === ErrorCode.EmailTaken) {
        return again('An account with this email exists already. Sign in instead.');
      }
      throw error;
    }
    await this.startSession(req, res, user, ctx.signedIn);
    setFlash(req, res, { kind: 'success', text: 'Welcome! Your password is set.' });
    throw new SeeOther('/partner');
  }

  @Post('logout')
  @PublicPage()
  async signOut(
    @Page() ctx: PageContext,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    if (ctx.signedIn) {
      await this.sessions.end(ctx.signedIn.session.id);
      await this.audit.record(ctx.signedIn.user, 'user.signed_out', {
        type: 'session',
        id: ctx.signedIn.session.id,
      });
    }
    res.clearCookie(SESSION_COOKIE, dashboardCookie(req));
    setFlash(req, res, { kind: 'info', text: 'You are signed out.' });
    throw new SeeOther('/partner/login');
  }

  @Post('mode')
  @AnyRole()
  async switchMode(@CurrentUser() signedIn: SignedIn, @FormBody() form: Form): Promise<void> {
    const mode: CredentialMode | null =
      form.mode === 'test' || form.mode === 'live' ? form.mode : null;
    if (mode === null) {
      throw new AppError(ErrorCode.InvalidRequest, 'Choose test or live mode.', { param: 'mode' });
    }
    await this.sessions.setMode(signedIn.session, mode);
    throw new SeeOther(safeNext(form.next));
  }

  /**
   * A new session (a new id, never the one the browser had: no fixation), its cookie, and the
   * sign-in in the organization's audit log.
   */
  private async startSession(
    req: Request,
    res: Response,
    user: DashboardUser,
    previous: SignedIn | null,
  ) {
    if (previous) {
      await this.sessions.end(previous.session.id);
    } else if (readCookie(req, SESSION_COOKIE) !== undefined) {
      await this.sessions.endByToken(readCookie(req, SESSION_COOKIE));
    }
    const organizationActive =
      (await this.accounts.organizationStatus(user.organizationId)) === 'active';
    const { token, session } = await this.sessions.start(
      user,
      organizationActive ? 'live' : 'test',
      {
        ip: req.ip ?? 'unknown',
        userAgent: req.get('user-agent') ?? '',
      },
    );
    res.cookie(SESSION_COOKIE, token, dashboardCookie(req));
    await this.audit.record(
      user,
      'user.signed_in',
      { type: 'session', id: session.id },
      { ip: session.ip },
    );
  }
}
