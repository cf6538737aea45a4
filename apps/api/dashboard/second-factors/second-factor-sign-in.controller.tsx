import { randomBytes } from 'node:crypto';
import { Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { SignInThrottle } from '#app/accounts';
import { PasskeysService, PendingSignInsService, TotpService } from '#app/dashboard-factors';
import { LoginPage } from '../accounts/accounts.pages.js';
import { dashboardCookie, readCookie } from '../common/cookies.js';
import type { PageContext } from '../common/dashboard-request.js';
import { DashboardController, FormBody, Page, PublicPage } from '../common/dashboard.decorators.js';
import { setFlash } from '../common/flash.js';
import { retryAfterSeconds } from '../common/retry-after.js';
import { safeNext } from '../../platform/site/origin.js';
import { SeeOther } from '../common/see-other.js';
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
  ): Promise<JSX.Element> {
    return this.stepPage(ctx, req, await this.pendingUser(req), safeNext(next));
  }

  @Post('second-factor')
  @PublicPage()
  @HttpCode(200)
  async verifyCode(
    @Page() ctx: PageContext,
    @FormBody() form: Form,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JSX.Element> {
    const userId = await this.pendingUser(req);
    const next = safeNext(form.next);
    const user = await this.factors.activeUser(userId);
    if (!user) {
      return this.expired(req, res);
    }
    const refuse = (status: number, error: string): Promise<JSX.Element> => {
      res.status(status);
      return this.stepPage(ctx, req, userId, next, error);
    };
    const attempt = await this.throttle.attempt(user.email, req.ip ?? 'unknown', () =>
      this.totp.verify(user.id, form.code ?? ''),
    );
    if (attempt.throttled) {
      res.setHeader('Retry-After', retryAfterSeconds(attempt.retryAfterMs));
      return refuse(429, TOO_MANY);
    }
    const factor = attempt.result;
    if (factor === null) {
      return refuse(401, CODE_REFUSED);
    }
    if (!(await this.complete(req, res))) {
      return this.expired(req, res);
    }
    await this.factors.start(req, res, user, ctx.signedIn, factor);
    if (factor === 'recovery_code') {
      const { recoveryCodesLeft } = await this.totp.status(user.id);
      setFlash(req, res, {
        kind: 'info',
        text: `You signed in with a recovery code; ${recoveryCodesLeft} left. You can make new ones on the Security page.`,
      });
    }
    throw new SeeOther(next);
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
  @HttpCode(200)
  async verifySecondFactorPasskey(
    @Page() ctx: PageContext,
    @FormBody() form: Form,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JSX.Element> {
    const userId = await this.pendingUser(req);
    const token = readCookie(req, PENDING_SIGN_IN_COOKIE) ?? '';
    const next = safeNext(form.next);
    const user = await this.factors.activeUser(userId);
    if (!user) {
      return this.expired(req, res);
    }
    const rp = this.factors.relyingParty(req);
    const refuse = (status: number, error: string): Promise<JSX.Element> => {
      res.status(status);
      return this.stepPage(ctx, req, userId, next, error);
    };
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
      res.setHeader('Retry-After', retryAfterSeconds(attempt.retryAfterMs));
      return refuse(429, TOO_MANY);
    }
    if (attempt.result === null) {
      return refuse(401, PASSKEY_REFUSED);
    }
    if (!(await this.complete(req, res))) {
      return this.expired(req, res);
    }
    await this.factors.start(req, res, user, ctx.signedIn, 'passkey');
    throw new SeeOther(next);
  }

  @Post('passkey/options')
  @PublicPage()
  @HttpCode(200)
  async passkeyOptions(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<OptionsAnswer> {
    const rp = this.factors.relyingParty(req);
    if (rp === null) {
      return { message: NO_PASSKEYS };
    }
    const binding = randomBytes(32).toString('base64url');
    res.cookie(WEBAUTHN_COOKIE, binding, dashboardCookie(req, { maxAge: 5 * 60_000 }));
    return { options: await this.passkeys.signInOptions(rp, binding) };
  }

  @Post('passkey')
  @PublicPage()
  @HttpCode(200)
  async signInWithPasskey(
    @Page() ctx: PageContext,
    @FormBody() form: Form,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JSX.Element> {
    const next = safeNext(form.next);
    const ip = req.ip ?? 'unknown';
    const refuse = (status: number, error: string): JSX.Element => {
      res.status(status);
      return <LoginPage ctx={ctx} next={next} error={error} />;
    };
    const binding = readCookie(req, WEBAUTHN_COOKIE);
    res.clearCookie(WEBAUTHN_COOKIE, dashboardCookie(req));
    const rp = this.factors.relyingParty(req);
    const attempt = await this.throttle.attempt(passkeyAccount(ip), ip, async () => {
      const userId =
        rp === null || binding === undefined
          ? null
          : await this.passkeys.signIn(rp, binding, credentialOf(form.credential));
      return userId === null ? null : this.factors.activeUser(userId);
    });
    if (attempt.throttled) {
      res.setHeader('Retry-After', retryAfterSeconds(attempt.retryAfterMs));
      return refuse(429, TOO_MANY);
    }
    const user = attempt.result;
    if (!user) {
      return refuse(401, PASSKEY_REFUSED);
    }
    await this.factors.start(req, res, user, ctx.signedIn, 'passkey');
    throw new SeeOther(next);
  }

  /** The user whose password was right in this browser; otherwise back to the sign-in page. */
  private async pendingUser(req: Request): Promise<string> {
    const userId = await this.pending.userOf(readCookie(req, PENDING_SIGN_IN_COOKIE));
    if (userId === null) {
      throw new SeeOther('/partner/login');
    }
    return userId;
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
  private async complete(req: Request, res: Response): Promise<boolean> {
    res.clearCookie(PENDING_SIGN_IN_COOKIE, dashboardCookie(req));
    return this.pending.complete(readCookie(req, PENDING_SIGN_IN_COOKIE) ?? '');
  }

  private expired(req: Request, res: Response): never {
    res.clearCookie(PENDING_SIGN_IN_COOKIE, dashboardCookie(req));
    setFlash(req, res, { kind: 'error', text: 'Your sign-in timed out. Sign in again.' });
    throw new SeeOther('/partner/login');
  }
}
