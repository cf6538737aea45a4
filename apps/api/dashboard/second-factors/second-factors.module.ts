import { type DynamicModule, Module, type OnModuleInit } from '@nestjs/common';
import { Clock, ReauthenticationService } from '#app/accounts';
import type { ApiConfig } from '#app/config';
import {
  DashboardFactorsModule,
  normalizeTotpCode,
  PendingSignInsService,
  TotpService,
} from '#app/dashboard-factors';
import { DashboardCoreModule } from '../dashboard-core.module.js';
import { dashboardCookie } from '../common/cookies.js';
import { SignInSteps } from '../common/sign-in-steps.js';
import { PENDING_SIGN_IN_COOKIE, SecondFactorSessions } from './second-factor-sessions.js';
import { SecondFactorSignInController } from './second-factor-sign-in.controller.js';
import { SecondFactorsController } from './second-factors.controller.js';

/** The form field a re-authentication by authenticator code arrives in. */
export const CONFIRM_CODE_FIELD = 'totpCode';

/**
 * Second factors in the dashboard: the sign-in step after a password, passkey sign-in, the
 * Security area's second-factor parts, and re-authentication by authenticator code.
 */
@Module({})
class SecondFactorsHooksModule implements OnModuleInit {
  constructor(
    private readonly steps: SignInSteps,
    private readonly reauth: ReauthenticationService,
    private readonly totp: TotpService,
    private readonly pending: PendingSignInsService,
  ) {}

  onModuleInit(): void {
    this.steps.register({
      begin: async (user, next, req, res) => {
        if (!(await this.totp.isEnabled(user.id))) {
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
      name: 'totp',
      offered: (proof) =>
        typeof proof[CONFIRM_CODE_FIELD] === 'string' && proof[CONFIRM_CODE_FIELD] !== '',
      // A recovery code is for a lost phone at sign-in; it never confirms a change.
      verify: async (signedIn, proof) => {
        const code = normalizeTotpCode(String(proof[CONFIRM_CODE_FIELD]));
        return code !== null && (await this.totp.verify(signedIn.user.id, code)) === 'totp';
      },
    });
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
      providers: [SecondFactorSessions],
      controllers: [SecondFactorSignInController, SecondFactorsController],
    };
  }
}
