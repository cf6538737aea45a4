import { Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ReauthenticationService, type SignedIn } from '#app/accounts';
import { PasskeysService, TotpService } from '#app/dashboard-factors';
import type { PageContext } from '../common/dashboard-request.js';
import {
  AnyRole,
  CurrentUser,
  DashboardController,
  FormBody,
  Page,
} from '../common/dashboard.decorators.js';
import { FormAnswer } from '../common/form-answer.js';
import { safeNext } from '../../platform/site/origin.js';
import { ReauthPrompts, reauthRefusalText } from '../common/reauth.js';
import { Reauthenticated } from '../common/reauthenticated.js';
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
/** A refused change goes back to the second factors' page with the refusal as its message. */
const BACK = { back: FACTORS_PATH };
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
  @Reauthenticated(PURPOSE, BACK)
  async beginTotp(@CurrentUser() me: SignedIn): Promise<FormAnswer> {
    if ((await this.totp.beginEnrolment(me.user.id, me.user.email)) === null) {
      return FormAnswer.refused(FACTORS_PATH, 'The authenticator app is on already.');
    }
    return FormAnswer.redirect(`${FACTORS_PATH}/totp`);
  }

  @Get('second-factors/totp')
  @AnyRole()
  async enrolmentPage(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @Req() req: Request,
  ): Promise<JSX.Element | FormAnswer> {
    const enrolment = await this.totp.pendingEnrolment(me.user.id, me.user.email);
    if (enrolment === null) {
      return FormAnswer.redirect(FACTORS_PATH);
    }
    return (
      <TotpEnrolmentPage ctx={ctx} enrolment={enrolment} reauth={await this.prompts.for(me, req)} />
    );
  }

  @Post('second-factors/totp/confirm')
  @AnyRole()
  @Reauthenticated(PURPOSE, BACK)
  async confirmTotp(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const codes = await this.totp.confirmEnrolment(me.user.id, form.code ?? '');
    if (codes === null) {
      const enrolment = await this.totp.pendingEnrolment(me.user.id, me.user.email);
      if (enrolment === null) {
        return FormAnswer.redirect(FACTORS_PATH);
      }
      const page = (
        <TotpEnrolmentPage
          ctx={ctx}
          enrolment={enrolment}
          reauth={await this.prompts.for(me, req)}
          error="That code did not work. Enter the code your app shows now."
        />
      );
      return FormAnswer.page(page, 400);
    }
    const token = await this.factors.changed(me, 'totp.enabled', req.ip ?? 'unknown');
    return FormAnswer.page(<RecoveryCodesPage ctx={ctx} codes={codes} />).withSession(token);
  }

  @Post('second-factors/recovery-codes')
  @AnyRole()
  @Reauthenticated(PURPOSE, BACK)
  async regenerate(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const codes = await this.totp.regenerateRecoveryCodes(me.user.id);
    if (codes === null) {
      return FormAnswer.refused(FACTORS_PATH, 'Turn on the authenticator app first.');
    }
    const token = await this.factors.changed(me, 'recovery_codes.regenerated', req.ip ?? 'unknown');
    return FormAnswer.page(<RecoveryCodesPage ctx={ctx} codes={codes} />).withSession(token);
  }

  @Post('second-factors/totp/disable')
  @AnyRole()
  @Reauthenticated(PURPOSE, BACK)
  async disableTotp(@CurrentUser() me: SignedIn, @Req() req: Request): Promise<FormAnswer> {
    const off = FormAnswer.done(FACTORS_PATH, 'The authenticator app is off.');
    if (!(await this.totp.disable(me.user.id))) {
      return off;
    }
    return off.withSession(await this.factors.changed(me, 'totp.disabled', req.ip ?? 'unknown'));
  }

  @Post('second-factors/passkeys/options')
  @AnyRole()
  @HttpCode(200)
  @Reauthenticated(PURPOSE, { json: true })
  async passkeyOptions(@CurrentUser() me: SignedIn, @Req() req: Request): Promise<OptionsAnswer> {
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
  @Reauthenticated(PURPOSE, BACK)
  async registerPasskey(
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Req() req: Request,
  ): Promise<FormAnswer> {
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
      return FormAnswer.refused(FACTORS_PATH, 'The passkey was not added. Try again.');
    }
    const ip = req.ip ?? 'unknown';
    const token = await this.factors.changed(me, 'passkey.registered', ip, passkey.name);
    return FormAnswer.done(FACTORS_PATH, `Passkey “${passkey.name}” added.`).withSession(token);
  }

  @Post('second-factors/passkeys/:id/rename')
  @AnyRole()
  @Reauthenticated(PURPOSE, BACK)
  async renamePasskey(
    @CurrentUser() me: SignedIn,
    @Param('id') id: string,
    @FormBody() form: Form,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const name = (form.name ?? '').trim();
    if (!PASSKEY_ID.test(id) || !(await this.passkeys.rename(me.user.id, id, name))) {
      return FormAnswer.refused(FACTORS_PATH, 'Give the passkey a name of up to 64 characters.');
    }
    const token = await this.factors.changed(me, 'passkey.renamed', req.ip ?? 'unknown', name);
    return FormAnswer.done(FACTORS_PATH, 'Passkey renamed.').withSession(token);
  }

  @Post('second-factors/passkeys/:id/remove')
  @AnyRole()
  @Reauthenticated(PURPOSE, BACK)
  async removePasskey(
    @CurrentUser() me: SignedIn,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const name = PASSKEY_ID.test(id)
      ? (await this.passkeys.list(me.user.id)).find((passkey) => passkey.id === id)?.name
      : undefined;
    if (name === undefined || !(await this.passkeys.remove(me.user.id, id))) {
      return FormAnswer.refused(FACTORS_PATH, 'No such passkey.');
    }
    const token = await this.factors.changed(me, 'passkey.removed', req.ip ?? 'unknown', name);
    return FormAnswer.done(FACTORS_PATH, 'Passkey removed.').withSession(token);
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

  /** "Confirm it's you" as a page of its own: the proof is this form's whole purpose. */
  @Post('confirm')
  @AnyRole()
  async confirm(
    @Page() ctx: PageContext,
    @CurrentUser() me: SignedIn,
    @FormBody() form: Form,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const next = safeNext(form.next);
    const confirmed = await this.reauth.confirm(me, form, req.ip ?? 'unknown');
    if (confirmed.ok) {
      return FormAnswer.redirect(next);
    }
    const error = reauthRefusalText(confirmed, 'to go on');
    return FormAnswer.page(
      await this.renderConfirm(ctx, me, req, next, error),
      confirmed.refusal === 'throttled' ? 429 : 401,
      { retryAfterMs: confirmed.refusal === 'throttled' ? confirmed.retryAfterMs : null },
    );
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
  ): Promise<FormAnswer> {
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
    return confirmed.ok
      ? FormAnswer.done(next, 'Confirmed: for 5 minutes, changes ask nothing more.')
      : FormAnswer.refused(next, reauthRefusalText(confirmed, 'to go on'));
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
}
