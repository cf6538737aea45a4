import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import type { DashboardUser } from '#app/accounts';
import { Clock, ReauthenticationService } from '#app/accounts';
import {
  DashboardFactorsModule,
  normalizeTotpCode,
  PasskeysService,
  PendingSignInsService,
  TotpService,
} from '#app/dashboard-factors';
import { DashboardCoreModule } from '../dashboard-core.module.js';
import { FormAnswer } from '../common/form-answer.js';
import { CONFIRM_CODE_FIELD } from '../common/reauth-field.js';
import { SECOND_FACTOR_STEP, type SignInStep } from '../common/sign-in-steps.js';
import { SecondFactorNotices } from './second-factor-notices.js';
import { PENDING_SIGN_IN_COOKIE, SecondFactorSessions } from './second-factor-sessions.js';
import { SecondFactorSignInController } from './second-factor-sign-in.controller.js';
import { SecondFactorsController } from './second-factors.controller.js';

/**
 * The step after a password for a user with the authenticator app or a passkey: a pending
 * sign-in (its cookie) and the second-factor page instead of a session.
 */
@Injectable()
class SecondFactorSignInStep implements SignInStep {
  constructor(
    private readonly totp: TotpService,
    private readonly passkeys: PasskeysService,
    private readonly pending: PendingSignInsService,
  ) {}

  async begin(user: DashboardUser, next: string): Promise<FormAnswer | null> {
    // The authenticator app or a passkey: either makes the password only the first step.
    const hasSecondFactor =
      (await this.totp.isEnabled(user.id)) || (await this.passkeys.count(user.id)) > 0;
    if (!hasSecondFactor) {
      return null;
    }
    const token = await this.pending.start(user.id);
    const step =
      next === '/partner'
        ? '/partner/login/second-factor'
        : `/partner/login/second-factor?next=${encodeURIComponent(next)}`;
    return FormAnswer.redirect(step).withCookie(PENDING_SIGN_IN_COOKIE, token, 5 * 60_000);
  }
}

/** The factors' services, on the app's clock. */
const factors = DashboardFactorsModule.withClock({ imports: [DashboardCoreModule], token: Clock });

/** Re-authentication by authenticator code or passkey, for the users who have one. */
@Module({ imports: [DashboardCoreModule, factors] })
class SecondFactorsHooksModule implements OnModuleInit {
  constructor(
    private readonly reauth: ReauthenticationService,
    private readonly totp: TotpService,
    private readonly passkeys: PasskeysService,
  ) {}

  onModuleInit(): void {
    this.reauth.register({
      factor: 'totp',
      enabledFor: (userId) => this.totp.isEnabled(userId),
      form: {
        field: CONFIRM_CODE_FIELD,
        // A recovery code is for a lost phone at sign-in; it never confirms a change.
        verify: async (signedIn, answer) => {
          const code = normalizeTotpCode(answer);
          return code !== null && (await this.totp.verify(signedIn.user.id, code)) === 'totp';
        },
      },
    });
    // A passkey answers through its own ceremony ("Confirm with a passkey"), not a form field.
    this.reauth.register({
      factor: 'passkey',
      enabledFor: async (userId) => (await this.passkeys.count(userId)) > 0,
    });
  }
}

/**
 * Second factors in the dashboard: the sign-in step after a password (`SECOND_FACTOR_STEP`,
 * exported for the sign-in page), their pages, and re-authentication by authenticator code or
 * passkey.
 */
@Module({
  imports: [DashboardCoreModule, factors, SecondFactorsHooksModule],
  providers: [
    SecondFactorSessions,
    SecondFactorNotices,
    { provide: SECOND_FACTOR_STEP, useClass: SecondFactorSignInStep },
  ],
  controllers: [SecondFactorSignInController, SecondFactorsController],
  exports: [SECOND_FACTOR_STEP],
})
export class SecondFactorsPagesModule {}
