import { Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  DashboardAudit,
  DashboardSessionsService,
  ReauthenticationService,
  type SignedIn,
} from '#app/accounts';
import { PasskeysService, TotpService } from '#app/dashboard-factors';
import type { PageContext } from '../common/dashboard-request.js';
import {
  AnyRole,
  CurrentUser,
  DashboardController,
  FormBody,
  Page,
} from '../common/dashboard.decorators.js';
import { setFlash } from '../common/flash.js';
import { safeNext } from '../common/origin.js';
import { SeeOther } from '../common/see-other.js';
import { credentialOf, SecondFactorSessions } from './second-factor-sessions.js';
import {
  ConfirmPage,
  FACTORS_PATH,
  RecoveryCodesPage,
  SecondFactorsPage,
  TotpEnrolmentPage,
} from './second-factors.pages.js';

type Form = Record<string, string>;
type OptionsAnswer = { options: unknown } | { message: string };

const CONFIRM_FIRST = 'Enter your password to confirm this change.';
/** A passkey id as stored: base64url of at most 1023 bytes. */
const PASSKEY_ID = /^[A-Za-z0-9_-]{1,1364}$/;

/**
 * The second-factor parts of the Security area, for every role (each person manages their own
 * sign-in): the authenticator app with its recovery codes, passkeys, and "Confirm it's you".
 * Every change needs a re-authentication within 5 minutes, gives the session a new id and is
 * written to the organization's audit log.
 */
@DashboardController('security')
export class SecondFactorsController {
  constructor(
    private readonly totp: TotpService,
    private readonly passkeys: PasskeysService,
    private readonly reauth: ReauthenticationService,
    private readonly audit: DashboardAudit,
    private readonly sessions: DashboardSessionsService,
    private readonly factors: SecondFactorSessions,
  ) {}

  @Get('second-factors')
  @AnyRole()
  async page(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @Req() req: Request,
  ): Promise<JSX.Element> {
    return (
      <SecondFactorsPage
        ctx={ctx}
        totp={await this.totp.status(me.user.id)}
        passkeys={await this.passkeys.list(me.user.id)}
        needsPassword={!this.reauth.reauthenticatedWithin(me)}
        passkeysAvailable={this.factors.relyingParty(req) !== null}
      />
    );
  }

  @Post('second-factors/totp')
  @AnyRole()
  async beginTotp(
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    await this.confirmed(me, form, req, res);
    if ((await this.totp.beginEnrolment(me.user.id, me.user.email)) === null) {
      this.back(req, res, 'error', 'The authenticator app is on already.');
    }
    throw new SeeOther(`${FACTORS_PATH}/totp`);
  }

  @Get('second-factors/totp')
  @AnyRole()
  async enrolmentPage(@Page() ctx: PageContext, @CurrentUser() me: SignedIn): Promise<JSX.Element> {
    const enrolment = await this.totp.pendingEnrolment(me.user.id, me.user.email);
    if (enrolment === null) {
      throw new SeeOther(FACTORS_PATH);
    }
    return (
      <TotpEnrolmentPage
        ctx={ctx}
        enrolment={enrolment}
        needsPassword={!this.reauth.reauthenticatedWithin(me)}
      />
    );
  }

  @Post('second-factors/totp/confirm')
  @AnyRole()
  @HttpCode(200)
  async confirmTotp(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JSX.Element> {
    await this.confirmed(me, form, req, res);
    const codes = await this.totp.confirmEnrolment(me.user.id, form.code ?? '');
    if (codes === null) {
      const enrolment = await this.totp.pendingEnrolment(me.user.id, me.user.email);
      if (enrolment === null) {
        throw new SeeOther(FACTORS_PATH);
      }
      res.status(400);
      return (
        <TotpEnrolmentPage
          ctx={ctx}
          enrolment={enrolment}
          needsPassword={false}
          error="That code did not work. Enter the code your app shows now."
        />
      );
    }
    await this.changed(req, res, me, 'totp.enabled');
    return <RecoveryCodesPage ctx={ctx} codes={codes} />;
  }

  @Post('second-factors/recovery-codes')
  @AnyRole()
  @HttpCode(200)
  async regenerate(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JSX.Element> {
    await this.confirmed(me, form, req, res);
    const codes = await this.totp.regenerateRecoveryCodes(me.user.id);
    if (codes === null) {
      this.back(req, res, 'error', 'Turn on the authenticator app first.');
    }
    await this.changed(req, res, me, 'recovery_codes.regenerated');
    return <RecoveryCodesPage ctx={ctx} codes={codes} />;
  }

  @Post('second-factors/totp/disable')
  @AnyRole()
  async disableTotp(
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    await this.confirmed(me, form, req, res);
    if (await this.totp.disable(me.user.id)) {
      await this.changed(req, res, me, 'totp.disabled');
    }
    this.back(req, res, 'success', 'The authenticator app is off.');
  }

  @Post('second-factors/passkeys/options')
  @AnyRole()
  @HttpCode(200)
  async passkeyOptions(
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Req() req: Request,
  ): Promise<OptionsAnswer> {
    if (!(await this.reauth.ensure(me, form))) {
      return { message: CONFIRM_FIRST };
    }
    const rp = this.factors.relyingParty(req);
    if (rp === null) {
      return { message: 'Passkeys are not available at this address.' };
    }
    const options = await this.passkeys.registrationOptions(me.user, rp, me.session.id);
    return options
      ? { options }
      : { message: 'You have the most passkeys allowed. Remove one to add another.' };
  }

  @Post('second-factors/passkeys')
  @AnyRole()
  async registerPasskey(
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    await this.confirmed(me, form, req, res);
    const rp = this.factors.relyingParty(req);
    const passkey =
      rp &&
      (await this.passkeys.register(
        me.user,
        rp,
        me.session.id,
        credentialOf(form.credential),
        form.name ?? '',
      ));
    if (!passkey) {
      this.back(req, res, 'error', 'The passkey was not added. Try again.');
    }
    await this.changed(req, res, me, 'passkey.registered', { name: passkey.name });
    this.back(req, res, 'success', `Passkey “${passkey.name}” added.`);
  }

  @Post('second-factors/passkeys/:id/rename')
  @AnyRole()
  async renamePasskey(
    @CurrentUser() me: SignedIn,
    @Param('id') id: string,
    @FormBody() form: Form,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    await this.confirmed(me, form, req, res);
    const name = (form.name ?? '').trim();
    if (!PASSKEY_ID.test(id) || !(await this.passkeys.rename(me.user.id, id, name))) {
      this.back(req, res, 'error', 'Give the passkey a name of up to 64 characters.');
    }
    await this.changed(req, res, me, 'passkey.renamed', { name });
    this.back(req, res, 'success', 'Passkey renamed.');
  }

  @Post('second-factors/passkeys/:id/remove')
  @AnyRole()
  async removePasskey(
    @CurrentUser() me: SignedIn,
    @Param('id') id: string,
    @FormBody() form: Form,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    await this.confirmed(me, form, req, res);
    if (!PASSKEY_ID.test(id) || !(await this.passkeys.remove(me.user.id, id))) {
      this.back(req, res, 'error', 'No such passkey.');
    }
    await this.changed(req, res, me, 'passkey.removed');
    this.back(req, res, 'success', 'Passkey removed.');
  }

  @Get('confirm')
  @AnyRole()
  async confirmPage(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @Query('next') next: unknown,
    @Req() req: Request,
  ): Promise<JSX.Element> {
    return this.renderConfirm(ctx, me, req, safeNext(next));
  }

  @Post('confirm')
  @AnyRole()
  @HttpCode(200)
  async confirm(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JSX.Element> {
    const next = safeNext(form.next);
    if (!(await this.reauth.confirm(me, form))) {
      res.status(401);
      return this.renderConfirm(ctx, me, req, next, 'That did not confirm it is you. Try again.');
    }
    throw new SeeOther(next);
  }

  @Post('confirm/passkey/options')
  @AnyRole()
  @HttpCode(200)
  async confirmPasskeyOptions(
    @CurrentUser() me: SignedIn,
    @Req() req: Request,
  ): Promise<OptionsAnswer> {
    const rp = this.factors.relyingParty(req);
    const options =
      rp && (await this.passkeys.userOptions(me.user.id, rp, me.session.id, 'reauth'));
    return options ? { options } : { message: 'You have no passkey to use here.' };
  }

  @Post('confirm/passkey')
  @AnyRole()
  @HttpCode(200)
  async confirmWithPasskey(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JSX.Element> {
    const next = safeNext(form.next);
    const rp = this.factors.relyingParty(req);
    const proved =
      rp !== null &&
      (await this.passkeys.verifyUser(
        me.user.id,
        rp,
        me.session.id,
        'reauth',
        credentialOf(form.credential),
      ));
    if (!proved) {
      res.status(401);
      return this.renderConfirm(ctx, me, req, next, 'That passkey did not confirm it is you.');
    }
    await this.sessions.markReauthenticated(me.session);
    throw new SeeOther(next);
  }

  private async renderConfirm(
    ctx: PageContext,
    me: SignedIn,
    req: Request,
    next: string,
    error?: string,
  ): Promise<JSX.Element> {
    return (
      <ConfirmPage
        ctx={ctx}
        next={next}
        totp={await this.totp.isEnabled(me.user.id)}
        passkeys={
          this.factors.relyingParty(req) !== null && (await this.passkeys.count(me.user.id)) > 0
        }
        error={error}
      />
    );
  }

  /** Re-authenticated within 5 minutes, or by the password in this very form; else back. */
  private async confirmed(me: SignedIn, form: Form, req: Request, res: Response): Promise<void> {
    if (!(await this.reauth.ensure(me, form))) {
      this.back(req, res, 'error', CONFIRM_FIRST);
    }
  }

  /** After a change of second factor: a new session id and the audit entry. */
  private async changed(
    req: Request,
    res: Response,
    me: SignedIn,
    action: string,
    details?: Record<string, unknown>,
  ): Promise<void> {
    await this.factors.rotate(req, res, me);
    await this.audit.record(me.user, action, { type: 'user', id: me.user.id }, details);
  }

  private back(req: Request, res: Response, kind: 'success' | 'error', text: string): never {
    setFlash(req, res, { kind, text });
    throw new SeeOther(FACTORS_PATH);
  }
}
