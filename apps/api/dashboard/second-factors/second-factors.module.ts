import { type DynamicModule, Module, type OnModuleInit } from '@nestjs/common';
import { Clock, ReauthenticationService } from '#app/accounts';
import type { ApiConfig } from '#app/config';
import {
  DashboardFactorsModule,
  normalizeTotpCode,
  PasskeysService,
  PendingSignInsService,
  TotpService,
} from '#app/dashboard-factors';
import { DashboardCoreModule } from '../dashboard-core.module.js';
import { dashboardCookie } from '../common/cookies.js';
import { CONFIRM_CODE_FIELD } from '../common/reauth-field.js';
import { SignInSteps } from '../common/sign-in-steps.js';
import { SecondFactorNotices } from './second-factor-notices.js';
import { PENDING_SIGN_IN_COOKIE, SecondFactorSessions } from './second-factor-sessions.js';
import { SecondFactorSignInController } from './second-factor-sign-in.controller.js';
import { SecondFactorsController } from './second-factors.controller.js';

/**
 * Second factors in the dashboard: the sign-in step after a password (for a user with the
 * authenticator app or a passkey), and re-authentication by authenticator code or passkey.
 */
@Module({})
class SecondFactorsHooksModule implements OnModuleInit {
  constructor(
    private readonly steps: SignInSteps,
    private readonly reauth: ReauthenticationService,
    private readonly totp: TotpService,
    private readonly passkeys: PasskeysService,
    private readonly pending: PendingSignInsService,
  ) {}

  onModuleInit(): void {
    this.steps.register({
      begin: async (user, next, req, res) => {
        if (!(await this.hasSecondFactor(user.id))) {
          return null;
        }
        const token = await this.pending.start(user.id);
        res.cookie(PENDING_SIGN_IN_COOKIE, token, dashboardCookie(req, { maxAge: 5 * 60_000 }));
        return next === '/partner'
          ? '/partner/login/second-factor'
          : `/partner/login/second-factor?next=${encodeURIComponent(next)}`;
      },
    });
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

  /** The authenticator app or a passkey: either makes the password only the first step. */
  private async hasSecondFactor(userId: string): Promise<boolean> {
    return (await this.totp.isEnabled(userId)) || (await this.passkeys.count(userId)) > 0;
  }
}

@Module({})
export class SecondFactorsPagesModule {
  static forRoot(config: ApiConfig): DynamicModule {
    const factors = DashboardFactorsModule.forRoot({
      masterKey: config.credentialEncryptionKey,
      clock: { imports: [DashboardCoreModule], token: Clock },
    });
    return {
      module: SecondFactorsPagesModule,
      imports: [
        DashboardCoreModule,
        factors,
        { module: SecondFactorsHooksModule, imports: [DashboardCoreModule, factors] },
      ],
      providers: [SecondFactorSessions, SecondFactorNotices],
      controllers: [SecondFactorSignInController, SecondFactorsController],
    };
  }
}
