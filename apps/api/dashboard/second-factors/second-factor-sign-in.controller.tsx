import { randomBytes } from 'node:crypto';
import { Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { SignInThrottle } from '#app/accounts';
import { PasskeysService, PendingSignInsService, TotpService } from '#app/dashboard-factors';
import { LoginPage } from '../accounts/accounts.pages.js';
import { readCookie } from '../common/cookies.js';
import type { PageContext } from '../common/dashboard-request.js';
import { DashboardController, FormBody, Page, PublicPage } from '../common/dashboard.decorators.js';
import { FormAnswer } from '../common/form-answer.js';
import { safeNext } from '../../platform/site/origin.js';
import {
  credentialOf,
  PENDING_SIGN_IN_COOKIE,
  SecondFactorSessions,
  WEBAUTHN_COOKIE,
} from './second-factor-sessions.js';
import { SecondFactorPage } from './second-factors.pages.js';

type Form = Record<string, string>;

/** What the passkey script receives: the ceremony's options, or why there are none. */
type OptionsAnswer = { options: unknown } | { message: string };

const CODE_REFUSED = 'That code did not work. Enter the current code or an unused recovery code.';
const PASSKEY_REFUSED = 'That passkey could not sign you in.';
const TOO_MANY = 'Too many failed attempts. Wait a few minutes, then try again.';
const NO_PASSKEYS = 'Passkeys are not available at this address.';
/** No password was right in this browser lately: sign in first. */
const SIGN_IN = FormAnswer.redirect('/partner/login');
/** A pending sign-in gone (timed out, or finished by another request): sign in again. */
const EXPIRED = FormAnswer.refused(
  '/partner/login',
  'Your sign-in timed out. Sign in again.',
).withCookie(PENDING_SIGN_IN_COOKIE, null);
/** Passkey failures before any user is known are counted per address, as an account of its own. */
const passkeyAccount = (ip: string) => `passkey@${ip}`;

/**
 * The rest of signing in: the second step after a password when the user has a second factor
 * (with the authenticator app on, a code or a recovery code; with a passkey, the passkey), and
 * signing in with a passkey alone.
 */
@DashboardController('login')
export class SecondFactorSignInController {
  constructor(
    private readonly totp: TotpService,
    private readonly passkeys: PasskeysService,
    private readonly pending: PendingSignInsService,
    private readonly throttle: SignInThrottle,
    private readonly factors: SecondFactorSessions,
  ) {}

  @Get('second-factor')
  @PublicPage()
  async secondFactorPage(
    @Page() ctx: PageContext,
    @Query('next') next: unknown,
    @Req() req: Request,
  ): Promise<JSX.Element | FormAnswer> {
    const userId = await this.pendingUser(req);
    return userId === null ? SIGN_IN : this.stepPage(ctx, req, userId, safeNext(next));
  }

  @Post('second-factor')
  @PublicPage()
  async verifyCode(
    @Page() ctx: PageContext,
    @FormBody() form: Form,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const userId = await this.pendingUser(req);
    if (userId === null) {
      return SIGN_IN;
    }
    const next = safeNext(form.next);
    const user = await this.factors.activeUser(userId);
    if (!user) {
      return EXPIRED;
    }
    const attempt = await this.throttle.attempt(user.email, req.ip ?? 'unknown', () =>
      this.totp.verify(user.id, form.code ?? ''),
    );
    if (attempt.throttled) {
      return this.refused(ctx, req, userId, next, 429, TOO_MANY, attempt.retryAfterMs);
    }
    const factor = attempt.result;
    if (factor === null) {
      return this.refused(ctx, req, userId, next, 401, CODE_REFUSED);
    }
    if (!(await this.complete(req))) {
      return EXPIRED;
    }
    const token = await this.factors.start(req, user, ctx.signedIn, factor);
    const signedIn = FormAnswer.redirect(next).withCookie(PENDING_SIGN_IN_COOKIE, null);
    if (factor !== 'recovery_code') {
      return signedIn.withSession(token);
    }
    const { recoveryCodesLeft } = await this.totp.status(user.id);
    return FormAnswer.redirect(next, {
      kind: 'info',
      text: `You signed in with a recovery code; ${recoveryCodesLeft} left. You can make new ones on the Security page.`,
    })
      .withCookie(PENDING_SIGN_IN_COOKIE, null)
      .withSession(token);
  }

  @Post('second-factor/passkey/options')
  @PublicPage()
  @HttpCode(200)
  async secondFactorPasskeyOptions(@Req() req: Request): Promise<OptionsAnswer> {
    const token = readCookie(req, PENDING_SIGN_IN_COOKIE);
    const userId = await this.pending.userOf(token);
    const rp = this.factors.relyingParty(req);
    if (userId === null || token === undefined) {
      return { message: 'Your sign-in timed out. Start over.' };
    }
    const options = rp && (await this.passkeys.userOptions(userId, rp, token, 'second_factor'));
    return options ? { options } : { message: NO_PASSKEYS };
  }

  @Post('second-factor/passkey')
  @PublicPage()
  async verifySecondFactorPasskey(
    @Page() ctx: PageContext,
    @FormBody() form: Form,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const userId = await this.pendingUser(req);
    if (userId === null) {
      return SIGN_IN;
    }
    const token = readCookie(req, PENDING_SIGN_IN_COOKIE) ?? '';
    const next = safeNext(form.next);
    const user = await this.factors.activeUser(userId);
    if (!user) {
      return EXPIRED;
    }
    const rp = this.factors.relyingParty(req);
    const attempt = await this.throttle.attempt(user.email, req.ip ?? 'unknown', async () => {
      const proved =
        rp !== null &&
        (await this.passkeys.verifyUser(
          user.id,
          rp,
          token,
          'second_factor',
          credentialOf(form.credential),
        ));
      return proved || null;
    });
    if (attempt.throttled) {
      return this.refused(ctx, req, userId, next, 429, TOO_MANY, attempt.retryAfterMs);
    }
    if (attempt.result === null) {
      return this.refused(ctx, req, userId, next, 401, PASSKEY_REFUSED);
    }
    if (!(await this.complete(req))) {
      return EXPIRED;
    }
    return FormAnswer.redirect(next)
      .withCookie(PENDING_SIGN_IN_COOKIE, null)
      .withSession(await this.factors.start(req, user, ctx.signedIn, 'passkey'));
  }

  @Post('passkey/options')
  @PublicPage()
  async passkeyOptions(@Req() req: Request): Promise<FormAnswer> {
    const rp = this.factors.relyingParty(req);
    if (rp === null) {
      return FormAnswer.json({ message: NO_PASSKEYS });
    }
    const binding = randomBytes(32).toString('base64url');
    return FormAnswer.json({ options: await this.passkeys.signInOptions(rp, binding) }).withCookie(
      WEBAUTHN_COOKIE,
      binding,
      5 * 60_000,
    );
  }

  @Post('passkey')
  @PublicPage()
  async signInWithPasskey(
    @Page() ctx: PageContext,
    @FormBody() form: Form,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const next = safeNext(form.next);
    const ip = req.ip ?? 'unknown';
    const refuse = (status: number, error: string, retryAfterMs?: number): FormAnswer =>
      FormAnswer.page(<LoginPage ctx={ctx} next={next} error={error} />, status, {
        retryAfterMs,
      }).withCookie(WEBAUTHN_COOKIE, null);
    const binding = readCookie(req, WEBAUTHN_COOKIE);
    const rp = this.factors.relyingParty(req);
    const attempt = await this.throttle.attempt(passkeyAccount(ip), ip, async () => {
      const userId =
        rp === null || binding === undefined
          ? null
          : await this.passkeys.signIn(rp, binding, credentialOf(form.credential));
      return userId === null ? null : this.factors.activeUser(userId);
    });
    if (attempt.throttled) {
      return refuse(429, TOO_MANY, attempt.retryAfterMs);
    }
    const user = attempt.result;
    if (!user) {
      return refuse(401, PASSKEY_REFUSED);
    }
    return FormAnswer.redirect(next)
      .withCookie(WEBAUTHN_COOKIE, null)
      .withSession(await this.factors.start(req, user, ctx.signedIn, 'passkey'));
  }

  /** The user whose password was right in this browser, if any. */
  private pendingUser(req: Request): Promise<string | null> {
    return this.pending.userOf(readCookie(req, PENDING_SIGN_IN_COOKIE));
  }

  /** The second step again, with why it refused. */
  private async refused(
    ctx: PageContext,
    req: Request,
    userId: string,
    next: string,
    status: number,
    error: string,
    retryAfterMs?: number,
  ): Promise<FormAnswer> {
    const page = await this.stepPage(ctx, req, userId, next, error);
    return FormAnswer.page(page, status, { retryAfterMs });
  }

  /** The second step as this user can take it here: a code when the app is on, a passkey. */
  private async stepPage(
    ctx: PageContext,
    req: Request,
    userId: string,
    next: string,
    error?: string,
  ): Promise<JSX.Element> {
    const [codes, passkeys] = await Promise.all([
      this.totp.isEnabled(userId),
      this.passkeys.count(userId),
    ]);
    return (
      <SecondFactorPage
        ctx={ctx}
        next={next}
        error={error}
        codes={codes}
        passkeys={passkeys > 0 && this.factors.relyingParty(req) !== null}
      />
    );
  }

  /** Ends the pending sign-in; false when another request already did. */
  private complete(req: Request): Promise<boolean> {
    return this.pending.complete(readCookie(req, PENDING_SIGN_IN_COOKIE) ?? '');
  }
}
