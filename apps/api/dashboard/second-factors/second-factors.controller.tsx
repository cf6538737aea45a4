import { Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DashboardAudit, ReauthenticationService, type SignedIn } from '#app/accounts';
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
import { safeNext } from '../../platform/site/origin.js';
import { ReauthPrompts, reauthRefusalText, setRetryAfter } from '../common/reauth.js';
import { SeeOther } from '../common/see-other.js';
import { type SecondFactorChange, SecondFactorNotices } from './second-factor-notices.js';
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

/** What the refusals of a change say the confirmation is for. */
const PURPOSE = 'to change how you sign in';
/** A passkey id as stored: base64url of at most 1023 bytes. */
const PASSKEY_ID = /^[A-Za-z0-9_-]{1,1364}$/;

/**
 * The second-factor parts of the Security area, for every role (each person manages their own
 * sign-in): the authenticator app with its recovery codes, passkeys, and "Confirm it's you".
 * Every change needs a re-authentication within 5 minutes, gives the session a new id, is
 * written to the organization's audit log and (but a new name) is mailed to the user.
 */
@DashboardController('security')
export class SecondFactorsController {
  constructor(
    private readonly totp: TotpService,
    private readonly passkeys: PasskeysService,
    private readonly reauth: ReauthenticationService,
    private readonly prompts: ReauthPrompts,
    private readonly audit: DashboardAudit,
    private readonly notices: SecondFactorNotices,
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
        reauth={await this.prompts.for(me, req)}
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
  async enrolmentPage(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @Req() req: Request,
  ): Promise<JSX.Element> {
    const enrolment = await this.totp.pendingEnrolment(me.user.id, me.user.email);
    if (enrolment === null) {
      throw new SeeOther(FACTORS_PATH);
    }
    return (
      <TotpEnrolmentPage ctx={ctx} enrolment={enrolment} reauth={await this.prompts.for(me, req)} />
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
          reauth={await this.prompts.for(me, req)}
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
    const confirmed = await this.reauth.ensure(me, form, req.ip ?? 'unknown');
    if (!confirmed.ok) {
      return { message: reauthRefusalText(confirmed, PURPOSE) };
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
    await this.changed(req, res, me, 'passkey.registered', passkey.name);
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
    await this.changed(req, res, me, 'passkey.renamed', name);
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
    const name = PASSKEY_ID.test(id)
      ? (await this.passkeys.list(me.user.id)).find((passkey) => passkey.id === id)?.name
      : undefined;
    if (name === undefined || !(await this.passkeys.remove(me.user.id, id))) {
      this.back(req, res, 'error', 'No such passkey.');
    }
    await this.changed(req, res, me, 'passkey.removed', name);
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
    const confirmed = await this.reauth.confirm(me, form, req.ip ?? 'unknown');
    if (!confirmed.ok) {
      res.status(confirmed.refusal === 'throttled' ? 429 : 401);
      setRetryAfter(res, confirmed);
      return this.renderConfirm(ctx, me, req, next, reauthRefusalText(confirmed, 'to go on'));
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

  /**
   * A passkey's answer, from "Confirm with a passkey" in a sensitive form or on "Confirm it's
   * you": back to `next` either way, re-authenticated or with the refusal as a message, so the
   * page the person was on asks nothing more, or offers the other ways again.
   */
  @Post('confirm/passkey')
  @AnyRole()
  async confirmWithPasskey(
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<never> {
    const next = safeNext(form.next);
    const rp = this.factors.relyingParty(req);
    const confirmed = await this.reauth.confirmWith(
      me,
      req.ip ?? 'unknown',
      'passkey',
      async () =>
        rp !== null &&
        this.passkeys.verifyUser(
          me.user.id,
          rp,
          me.session.id,
          'reauth',
          credentialOf(form.credential),
        ),
    );
    setFlash(
      req,
      res,
      confirmed.ok
        ? { kind: 'success', text: 'Confirmed: for 5 minutes, changes ask nothing more.' }
        : { kind: 'error', text: reauthRefusalText(confirmed, 'to go on') },
    );
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

  /** Re-authenticated within 5 minutes, or by a proof in this very form; else back. */
  private async confirmed(me: SignedIn, form: Form, req: Request, res: Response): Promise<void> {
    const confirmed = await this.reauth.ensure(me, form, req.ip ?? 'unknown');
    if (!confirmed.ok) {
      this.back(req, res, 'error', reauthRefusalText(confirmed, PURPOSE));
    }
  }

  /**
   * After a change of second factor: a new session id, the audit entry and the notice to the
   * user. `name`: the passkey's.
   */
  private async changed(
    req: Request,
    res: Response,
    me: SignedIn,
    change: SecondFactorChange,
    name?: string,
  ): Promise<void> {
    await this.factors.rotate(req, res, me);
    await this.audit.record(
      me.user,
      change,
      { type: 'user', id: me.user.id },
      name === undefined ? undefined : { name },
    );
    await this.notices.send(me, change, req.ip ?? 'unknown', name);
  }

  private back(req: Request, res: Response, kind: 'success' | 'error', text: string): never {
    setFlash(req, res, { kind, text });
    throw new SeeOther(FACTORS_PATH);
  }
}
