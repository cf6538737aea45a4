import { Get, Inject, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { AccountRequestsLimiter, DashboardAccountsService } from '#app/accounts';
import { ErrorCode } from '#app/errors';
import { Field } from '../components/field.js';
import { FormError, Notice } from '../components/flash.js';
import { Form } from '../components/form.js';
import { Layout } from '../components/layout.js';
import type { PageContext } from '../common/dashboard-request.js';
import { DASHBOARD_SETTINGS, type DashboardSettings } from '../common/dashboard.config.js';
import { DashboardController, FormBody, Page, PublicPage } from '../common/dashboard.decorators.js';
import { FormAnswer } from '../common/form-answer.js';
import { emailProblem, passwordFieldProblem } from '../common/form-rules.js';
import { checked, submitForm } from '../common/page-form.js';
import { serviceOrigin } from '../../platform/site/origin.js';
import { LinkGonePage, SetPasswordPage } from './accounts.pages.js';

/** The same answer whether or not the address has an account. */
export const RESET_SENT =
  'If an account exists for this email, we sent it a link to choose a new password. The link works once, for 1 hour.';

/** The answer past the limits, the same whether or not the address has an account. */
export const TOO_MANY_RESETS =
  'Too many reset links were asked for this email or from your network. Wait a while, then try again.';

function ForgotPasswordPage({
  ctx,
  email,
  error,
  sent,
}: {
  ctx: PageContext;
  email?: string;
  error?: string | null;
  sent?: boolean;
}): JSX.Element {
  return (
    <Layout ctx={ctx} title="Forgot password">
      <h1>Forgot password?</h1>
      {sent ? (
        <Notice>
          <p role="status">{RESET_SENT}</p>
        </Notice>
      ) : (
        <p>We mail you a link to choose a new password.</p>
      )}
      <FormError message={error} />
      <div class="panel">
        <Form ctx={ctx} action="/partner/forgot-password" label="Send reset link">
          <Field
            label="Email"
            name="email"
            type="email"
            value={email}
            autocomplete="username"
            required
          />
          <div class="actions">
            <button type="submit">Send reset link</button>
          </div>
        </Form>
      </div>
      <p>
        <a href="/partner/login">Back to sign in</a>
      </p>
    </Layout>
  );
}

/** "Forgot password?": a single-use link valid 1 hour, by mail; then the page that uses it. */
@DashboardController()
export class PasswordResetController {
  constructor(
    private readonly accounts: DashboardAccountsService,
    private readonly limiter: AccountRequestsLimiter,
    @Inject(DASHBOARD_SETTINGS) private readonly settings: DashboardSettings,
  ) {}

  @Get('forgot-password')
  @PublicPage()
  forgot(@Page() ctx: PageContext): JSX.Element {
    return <ForgotPasswordPage ctx={ctx} />;
  }

  @Post('forgot-password')
  @PublicPage()
  async sendLink(
    @Page() ctx: PageContext,
    @FormBody() form: Record<string, string>,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const email = (form.email ?? '').trim();
    const problem = emailProblem(email);
    if (problem) {
      return FormAnswer.page(
        <ForgotPasswordPage ctx={ctx} email={email.slice(0, 254)} error={problem} />,
        400,
      );
    }
    const waitMs = await this.limiter.admit('passwordReset', email, req.ip ?? 'unknown');
    if (waitMs > 0) {
      const page = <ForgotPasswordPage ctx={ctx} email={email} error={TOO_MANY_RESETS} />;
      return FormAnswer.page(page, 429, { retryAfterMs: waitMs });
    }
    await this.accounts.requestPasswordReset(email, serviceOrigin(req, this.settings.publicUrl));
    return FormAnswer.page(<ForgotPasswordPage ctx={ctx} sent />);
  }

  @Get('reset-password/:token')
  @PublicPage()
  async resetPage(
    @Page() ctx: PageContext,
    @Param('token') token: string,
  ): Promise<JSX.Element | FormAnswer> {
    if (!(await this.accounts.isResetLinkOpen(token))) {
      return FormAnswer.page(<LinkGonePage ctx={ctx} what="password reset" />, 404);
    }
    return <ResetPage ctx={ctx} token={token} />;
  }

  @Post('reset-password/:token')
  @PublicPage()
  async reset(
    @Page() ctx: PageContext,
    @Param('token') token: string,
    @FormBody() form: Record<string, string>,
  ): Promise<FormAnswer> {
    const password = form.password ?? '';
    return submitForm({
      check: () => checked(password, { password: passwordFieldProblem(password) ?? undefined }),
      submit: (password) => this.accounts.resetPassword(token, password),
      refusals: (error) => error.param === 'password' || error.code === ErrorCode.NotFound,
      done: () =>
        FormAnswer.done(
          '/partner/login',
          'Your password is changed and every session ended. Sign in with the new password.',
        ),
      refused: {
        again: (problems) =>
          problems.password === undefined ? (
            FormAnswer.page(<LinkGonePage ctx={ctx} what="password reset" />, 404)
          ) : (
            <ResetPage ctx={ctx} token={token} error={problems.password} />
          ),
      },
    });
  }
}

function ResetPage({
  ctx,
  token,
  error,
}: {
  ctx: PageContext;
  token: string;
  error?: string;
}): JSX.Element {
  return (
    <SetPasswordPage
      ctx={ctx}
      title="Choose a new password"
      intro="Choose a new password. Every session of your account ends when you do."
      action={`/partner/reset-password/${token}`}
      email={null}
      button="Change password"
      error={error}
    />
  );
}
