import { Injectable } from '@nestjs/common';
import { Clock, type SignedIn } from '#app/accounts';
import { Mailer } from '#app/mail';

/** A change of a user's second factors, as its audit entry names it. */
export type SecondFactorChange =
  | 'totp.enabled'
  | 'totp.disabled'
  | 'recovery_codes.regenerated'
  | 'passkey.registered'
  | 'passkey.renamed'
  | 'passkey.removed';

/**
 * What the notice says happened, or null for a change no one needs to hear of (a new name);
 * `name` is the passkey's.
 */
const NOTICES: Record<
  SecondFactorChange,
  ((name: string) => { subject: string; what: string }) | null
> = {
  'totp.enabled': () => ({
    subject: 'Authenticator app turned on',
    what: 'The authenticator app was turned on for your account: signing in now asks for its code.',
  }),
  'totp.disabled': () => ({
    subject: 'Authenticator app turned off',
    what: 'The authenticator app was turned off for your account, and its recovery codes with it.',
  }),
  'recovery_codes.regenerated': () => ({
    subject: 'New recovery codes',
    what: 'New recovery codes were made for your account: the old ones no longer work.',
  }),
  'passkey.registered': (name) => ({
    subject: 'Passkey added',
    what: `The passkey "${name}" was added to your account: it can sign you in.`,
  }),
  'passkey.renamed': null,
  'passkey.removed': (name) => ({
    subject: 'Passkey removed',
    what: `The passkey "${name}" was removed from your account: it no longer signs you in.`,
  }),
};

/**
 * Tells a user by mail that their second factors changed, so a change they did not make (a
 * session taken over) does not go unnoticed. A mail that fails is logged, never undoes the change.
 */
@Injectable()
export class SecondFactorNotices {
  constructor(
    private readonly mailer: Mailer,
    private readonly clock: Clock,
  ) {}

  async send(me: SignedIn, change: SecondFactorChange, ip: string, name = ''): Promise<void> {
    const notice = NOTICES[change]?.(name);
    if (!notice) {
      return;
    }
    await this.mailer.sendQuietly({
      to: me.user.email,
      subject: `${notice.subject} on your Swap Partners account`,
      text: [
        notice.what,
        '',
        `Account: ${me.user.email} (${me.organization.name})`,
        `When: ${this.clock.now().toISOString()}`,
        `From: ${ip}`,
        '',
        'If this was you, there is nothing more to do. If it was not, reset your password with ' +
          '"Forgot password?" on the sign-in page, then review your second factors and sessions ' +
          'on the Security page of the dashboard.',
      ].join('\n'),
    });
  }
}
