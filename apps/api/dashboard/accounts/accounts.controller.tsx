import { Get, Inject, Param, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import {
  AccountRequestsLimiter,
  DashboardAccountsService,
  DashboardSessionsService,
  type Invitation,
  type SignedIn,
  SignInThrottle,
} from '#app/accounts';
import { normalizeFeePercent, type CredentialMode } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
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
import { FormAnswer } from '../common/form-answer.js';
import { emailProblem, passwordFieldProblem, textProblem } from '../common/form-rules.js';
import { checked, type FormProblems, submitForm } from '../common/page-form.js';
import { safeNext, serviceOrigin } from '../../platform/site/origin.js';
import { SECOND_FACTOR_STEP, type SignInStep } from '../common/sign-in-steps.js';
import { browserOf } from '../second-factors/second-factor-sessions.js';
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
    @Inject(SECOND_FACTOR_STEP) private readonly secondFactor: SignInStep,
    @Inject(DASHBOARD_SETTINGS) private readonly settings: DashboardSettings,
  ) {}

  @Get('login')
  @PublicPage()
  login(@Page() ctx: PageContext, @Query('next') next: unknown): JSX.Element | FormAnswer {
    if (ctx.signedIn) {
      return FormAnswer.redirect(safeNext(next));
    }
    return <LoginPage ctx={ctx} next={safeNext(next)} />;
  }

  @Post('login')
  @PublicPage()
  async signIn(
    @Page() ctx: PageContext,
    @FormBody() form: Form,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const email = (form.email ?? '').trim();
    const password = form.password ?? '';
    const next = safeNext(form.next);
    const refuse = (status: number, error: string, retryAfterMs?: number): FormAnswer =>
      FormAnswer.page(
        <LoginPage ctx={ctx} email={email.slice(0, 254)} next={next} error={error} />,
        status,
        { retryAfterMs },
      );
    const valid =
      emailProblem(email) === null &&
      passwordFieldProblem(password) === null &&
      password.length <= 1024;
    const attempt = await this.throttle.attempt(email, req.ip ?? 'unknown', () =>
      valid ? this.accounts.authenticate(email, password) : Promise.resolve(null),
    );
    if (attempt.throttled) {
      return refuse(
        429,
        'Too many failed sign-ins. Wait a few minutes, then try again.',
        attempt.retryAfterMs,
      );
    }
    const user = attempt.result;
    if (!user) {
      return refuse(401, SIGN_IN_FAILED);
    }
    return (
      (await this.secondFactor.begin(user, next)) ??
      FormAnswer.redirect(next).withSession(
        await this.accounts.signIn(user, browserOf(req, ctx.signedIn)),
      )
    );
  }

  @Get('signup')
  @PublicPage()
  signupPage(@Page() ctx: PageContext): JSX.Element | FormAnswer {
    if (ctx.signedIn) {
      return FormAnswer.redirect('/partner');
    }
    return <SignupPage ctx={ctx} values={{}} errors={{}} />;
  }

  @Post('signup')
  @PublicPage()
  async signUp(
    @Page() ctx: PageContext,
    @FormBody() form: Form,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const values: Required<SignupValues> = {
      organizationName: (form.organizationName ?? '').trim(),
      email: (form.email ?? '').trim(),
      feePercent: (form.feePercent ?? '').trim(),
    };
    const password = form.password ?? '';
    const feePercent = normalizeFeePercent(values.feePercent);
    const again = (errors: FormProblems, status = 400, error?: string, retryAfterMs?: number) => {
      const shown = {
        ...values,
        organizationName: values.organizationName.slice(0, 200),
        email: values.email.slice(0, 254),
        feePercent: values.feePercent.slice(0, 20),
      };
      return FormAnswer.page(
        <SignupPage ctx={ctx} values={shown} errors={errors} error={error} />,
        status,
        { retryAfterMs },
      );
    };
    const input = checked(feePercent, {
      organizationName:
        textProblem(values.organizationName, 'the organization name', 200) ?? undefined,
      email: emailProblem(values.email) ?? undefined,
      password: passwordFieldProblem(password) ?? undefined,
      feePercent:
        feePercent === null ? 'Enter a fee from 0 to 4 percent, like 1 or 0.5.' : undefined,
    });
    if (!input.ok || input.values === null) {
      return again(input.ok ? {} : input.problems);
    }
    const waitMs = await this.limiter.admit('signUp', values.email, req.ip ?? 'unknown');
    if (waitMs > 0) {
      const error =
        'Too many applications from your network or for this email. Wait a while, then try again.';
      return again({}, 429, error, waitMs);
    }
    const application = { ...values, password, feePercent: input.values };
    return submitForm({
      submit: () => this.accounts.apply(application, serviceOrigin(req, this.settings.publicUrl)),
      refusals: (error) => error.param === 'password',
      done: () => FormAnswer.redirect('/partner/signup/sent'),
      refused: { again: (errors) => again(errors) },
    });
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
  ): Promise<JSX.Element | FormAnswer> {
    const application = await this.accounts.findOpenApplication(token);
    if (!application) {
      return FormAnswer.page(<LinkGonePage ctx={ctx} what="application" />, 404);
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
  confirmApplication(
    @Page() ctx: PageContext,
    @Param('token') token: string,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    return submitForm({
      submit: () => this.accounts.confirmApplication(token),
      refusals: [ErrorCode.NotFound, ErrorCode.EmailTaken],
      done: async ({ user }) =>
        FormAnswer.done(
          '/partner',
          'Application received. We review it shortly; meanwhile you can use test mode.',
        ).withSession(await this.accounts.signIn(user, browserOf(req, ctx.signedIn))),
      refused: {
        again: (_, error) =>
          error?.code === ErrorCode.EmailTaken
            ? FormAnswer.page(<AccountExistsPage ctx={ctx} />, 409)
            : FormAnswer.page(<LinkGonePage ctx={ctx} what="application" />, 404),
      },
    });
  }

  @Get('invitations/:token')
  @PublicPage()
  async invitationPage(
    @Page() ctx: PageContext,
    @Param('token') token: string,
  ): Promise<JSX.Element | FormAnswer> {
    const invitation = await this.accounts.findOpenInvitation(token);
    if (!invitation) {
      return FormAnswer.page(<LinkGonePage ctx={ctx} what="invitation" />, 404);
    }
    return <InvitationPage ctx={ctx} token={token} invitation={invitation} />;
  }

  @Post('invitations/:token')
  @PublicPage()
  async acceptInvitation(
    @Page() ctx: PageContext,
    @Param('token') token: string,
    @FormBody() form: Form,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const invitation = await this.accounts.findOpenInvitation(token);
    if (!invitation) {
      return FormAnswer.page(<LinkGonePage ctx={ctx} what="invitation" />, 404);
    }
    const password = form.password ?? '';
    return submitForm({
      check: () => checked(password, { password: passwordFieldProblem(password) ?? undefined }),
      submit: (password) => this.accounts.acceptInvitation(token, password),
      refusals: (error) => error.param === 'password' || error.code === ErrorCode.EmailTaken,
      done: async (user) =>
        FormAnswer.done('/partner', 'Welcome! Your password is set.').withSession(
          await this.accounts.signIn(user, browserOf(req, ctx.signedIn)),
        ),
      refused: {
        again: (problems, error) => (
          <InvitationPage
            ctx={ctx}
            token={token}
            invitation={invitation}
            error={
              error?.code === ErrorCode.EmailTaken
                ? 'An account with this email exists already. Sign in instead.'
                : problems.password
            }
          />
        ),
      },
    });
  }

  @Post('logout')
  @PublicPage()
  async signOut(@Page() ctx: PageContext): Promise<FormAnswer> {
    if (ctx.signedIn) {
      await this.accounts.signOut(ctx.signedIn);
    }
    return FormAnswer.redirect('/partner/login', {
      kind: 'info',
      text: 'You are signed out.',
    }).withSession(null);
  }

  @Post('mode')
  @AnyRole()
  async switchMode(@CurrentUser() signedIn: SignedIn, @FormBody() form: Form): Promise<FormAnswer> {
    const mode: CredentialMode | null =
      form.mode === 'test' || form.mode === 'live' ? form.mode : null;
    if (mode === null) {
      throw new AppError(ErrorCode.InvalidRequest, 'Choose test or live mode.', { param: 'mode' });
    }
    await this.sessions.setMode(signedIn.session, mode);
    return FormAnswer.redirect(safeNext(form.next));
  }
}

/** "Accept the invitation": the password that joins the team. */
function InvitationPage({
  ctx,
  token,
  invitation,
  error,
}: {
  ctx: PageContext;
  token: string;
  invitation: Invitation;
  error?: string;
}): JSX.Element {
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
}
