import { Injectable } from '@nestjs/common';
import { DashboardAccountsService } from './dashboard-accounts.service.js';
import type { SignedIn } from './dashboard-user.js';
import { DashboardSessionsService } from './dashboard-sessions.service.js';
import { SignInThrottle } from './sign-in.throttle.js';

/** How long a re-authentication counts for sensitive actions (reveal, payout, password, team). */
export const REAUTH_WINDOW_MS = 5 * 60 * 1000;

/** A way of proving who you are again. */
export type ReauthFactor = 'password' | 'totp' | 'passkey';

/** The form field a password confirmation arrives in. */
export const CONFIRM_PASSWORD_FIELD = 'confirmPassword';

/** No password is longer: a longer answer is wrong without being hashed (as at sign-in). */
const MAX_PASSWORD_LENGTH = 1024;

/**
 * One way of proving who you are again. The password is built in; second factors (TOTP,
 * passkeys) register theirs with `ReauthenticationService.register`.
 */
export interface ReauthMethod {
  readonly factor: ReauthFactor;
  /** True when the user has this factor, so sensitive forms offer it. */
  enabledFor(userId: string): Promise<boolean>;
  /**
   * For a factor answered in a form field: the field, and the check of its answer. A passkey
   * answers through its own ceremony instead (see `ReauthenticationService.confirmWith`).
   */
  readonly form?: {
    field: string;
    verify(signedIn: SignedIn, answer: string): Promise<boolean>;
  };
}

/** What came of a re-authentication. */
export type ReauthOutcome =
  | { ok: true }
  /** No proof was given; `factors` are the ones the user could give. */
  | { ok: false; refusal: 'missing'; factors: ReauthFactor[] }
  /** Every proof given was wrong; `tried` names them, in the order checked. */
  | { ok: false; refusal: 'wrong'; tried: ReauthFactor[] }
  /** Too many wrong proofs or failed sign-ins lately: nothing was checked. */
  | { ok: false; refusal: 'throttled'; retryAfterMs: number };

/**
 * Re-authentication before a sensitive action: a password, an authenticator code or a passkey,
 * counting for 5 minutes. Wrong proofs count with failed sign-ins (per account and per address),
 * so a taken-over session cannot guess the password or a code, and past the limit nothing is
 * checked until the block ends.
 */
@Injectable()
export class ReauthenticationService {
  private readonly methods: ReauthMethod[] = [];

  constructor(
    private readonly sessions: DashboardSessionsService,
    private readonly throttle: SignInThrottle,
    accounts: DashboardAccountsService,
  ) {
    this.methods.push({
      factor: 'password',
      enabledFor: () => Promise.resolve(true),
      form: {
        field: CONFIRM_PASSWORD_FIELD,
        verify: async (signedIn, answer) =>
          answer.length <= MAX_PASSWORD_LENGTH && accounts.checkPassword(signedIn.user, answer),
      },
    });
  }

  register(method: ReauthMethod): void {
    this.methods.push(method);
  }

  /** True when this session re-authenticated within `ms` (5 minutes unless said). */
  reauthenticatedWithin(signedIn: SignedIn, ms = REAUTH_WINDOW_MS): boolean {
    return this.sessions.reauthenticatedWithin(signedIn.session, ms);
  }

  /** The factors this user can re-authenticate with, the password first. */
  async factorsOf(signedIn: SignedIn): Promise<ReauthFactor[]> {
    const enabled = await Promise.all(
      this.methods.map((method) => method.enabledFor(signedIn.user.id)),
    );
    return this.methods.filter((_, i) => enabled[i]).map((method) => method.factor);
  }

  /**
   * For a sensitive action: fine when the session re-authenticated within 5 minutes; otherwise
   * the request must carry a proof in its own form (a password field, or an authenticator code,
   * in the same form as the button).
   */
  async ensure(
    signedIn: SignedIn,
    proof: Readonly<Record<string, unknown>>,
    ip: string,
  ): Promise<ReauthOutcome> {
    return this.reauthenticatedWithin(signedIn) ? { ok: true } : this.confirm(signedIn, proof, ip);
  }

  /**
   * Checks the proofs in `proof` (either one suffices); on success the session counts as
   * re-authenticated from now.
   */
  async confirm(
    signedIn: SignedIn,
    proof: Readonly<Record<string, unknown>>,
    ip: string,
  ): Promise<ReauthOutcome> {
    const offered = this.methods.flatMap(({ factor, form }) => {
      const answer = form ? proof[form.field] : undefined;
      return form && typeof answer === 'string' && answer !== ''
        ? [{ factor, check: () => form.verify(signedIn, answer) }]
        : [];
    });
    if (offered.length === 0) {
      return { ok: false, refusal: 'missing', factors: await this.factorsOf(signedIn) };
    }
    return this.attempt(
      signedIn,
      ip,
      offered.map((o) => o.factor),
      async () => {
        for (const { check } of offered) {
          if (await check()) {
            return true;
          }
        }
        return false;
      },
    );
  }

  /**
   * A proof checked elsewhere (a passkey's ceremony): throttled, counted and recorded as the
   * form proofs are.
   */
  confirmWith(
    signedIn: SignedIn,
    ip: string,
    factor: ReauthFactor,
    check: () => Promise<boolean>,
  ): Promise<ReauthOutcome> {
    return this.attempt(signedIn, ip, [factor], check);
  }

  private async attempt(
    signedIn: SignedIn,
    ip: string,
    tried: ReauthFactor[],
    check: () => Promise<boolean>,
  ): Promise<ReauthOutcome> {
    const attempt = await this.throttle.attempt(
      signedIn.user.email,
      ip,
      async () => (await check()) || null,
    );
    if (attempt.throttled) {
      return { ok: false, refusal: 'throttled', retryAfterMs: attempt.retryAfterMs };
    }
    if (attempt.result === null) {
      return { ok: false, refusal: 'wrong', tried };
    }
    await this.sessions.markReauthenticated(signedIn.session);
    return { ok: true };
  }
}
