import { Injectable } from '@nestjs/common';
import { DashboardAccountsService } from './dashboard-accounts.service.js';
import type { SignedIn } from './dashboard-user.js';
import { DashboardSessionsService } from './dashboard-sessions.service.js';

/** How long a re-authentication counts for sensitive actions (reveal, payout, password, team). */
export const REAUTH_WINDOW_MS = 5 * 60 * 1000;

/**
 * One way of proving who you are again. The password is built in; second factors (TOTP,
 * passkeys) register theirs with `ReauthenticationService.register`. `proof` holds the form
 * fields the person sent.
 */
export interface ReauthMethod {
  readonly name: string;
  /** True when `proof` carries this method's answer at all (a filled field). */
  offered(proof: Readonly<Record<string, unknown>>): boolean;
  verify(signedIn: SignedIn, proof: Readonly<Record<string, unknown>>): Promise<boolean>;
}

/** The form field a password confirmation arrives in. */
export const CONFIRM_PASSWORD_FIELD = 'confirmPassword';

@Injectable()
export class ReauthenticationService {
  private readonly methods: ReauthMethod[] = [];

  constructor(
    private readonly sessions: DashboardSessionsService,
    accounts: DashboardAccountsService,
  ) {
    this.methods.push({
      name: 'password',
      offered: (proof) =>
        typeof proof[CONFIRM_PASSWORD_FIELD] === 'string' && proof[CONFIRM_PASSWORD_FIELD] !== '',
      verify: (signedIn, proof) =>
        accounts.checkPassword(signedIn.user, String(proof[CONFIRM_PASSWORD_FIELD])),
    });
  }

  register(method: ReauthMethod): void {
    this.methods.push(method);
  }

  /** True when this session re-authenticated within `ms` (5 minutes unless said). */
  reauthenticatedWithin(signedIn: SignedIn, ms = REAUTH_WINDOW_MS): boolean {
    return this.sessions.reauthenticatedWithin(signedIn.session, ms);
  }

  /**
   * Checks the first proof offered in `proof`; on success the session counts as re-authenticated
   * from now. False when none is offered or it is wrong.
   */
  async confirm(signedIn: SignedIn, proof: Readonly<Record<string, unknown>>): Promise<boolean> {
    const method = this.methods.find((candidate) => candidate.offered(proof));
    if (!method || !(await method.verify(signedIn, proof))) {
      return false;
    }
    await this.sessions.markReauthenticated(signedIn.session);
    return true;
  }

  /**
   * For a sensitive action: true when the session re-authenticated within 5 minutes, or the
   * request itself carries a valid proof (a password field in the same form as the button).
   */
  async ensure(signedIn: SignedIn, proof: Readonly<Record<string, unknown>>): Promise<boolean> {
    return this.reauthenticatedWithin(signedIn) || this.confirm(signedIn, proof);
  }
}
