import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import {
  DashboardPasskeyEntity,
  DashboardPendingSignInEntity,
  DashboardRecoveryCodeEntity,
  DashboardTotpEntity,
  DashboardWebAuthnChallengeEntity,
} from '#app/persistence';
import { FACTOR_CIPHER, FACTORS_CLOCK, factorCipher, type FactorsClock } from './factor.keys.js';
import { PasskeysRepository } from './passkeys.repository.js';
import { PasskeysService } from './passkeys.service.js';
import { PendingSignInsRepository } from './pending-sign-ins.repository.js';
import { PendingSignInsService } from './pending-sign-ins.service.js';
import { RecoveryCodesRepository } from './recovery-codes.repository.js';
import { TotpRepository } from './totp.repository.js';
import { TotpService } from './totp.service.js';
import { WebAuthnChallengesRepository } from './webauthn-challenges.repository.js';

export interface DashboardFactorsOptions {
  /** `CREDENTIAL_ENCRYPTION_KEY`; the factors' own keys are derived from it. */
  masterKey: Buffer;
  clock?: FactorsClock;
}

/** Second factors of dashboard users: TOTP with recovery codes, and passkeys. */
@Module({})
export class DashboardFactorsModule {
  static forRoot(options: DashboardFactorsOptions): DynamicModule {
    return {
      module: DashboardFactorsModule,
      imports: [
        TypeOrmModule.forFeature([
          DashboardTotpEntity,
          DashboardRecoveryCodeEntity,
          DashboardPasskeyEntity,
          DashboardWebAuthnChallengeEntity,
          DashboardPendingSignInEntity,
        ]),
      ],
      providers: [
        { provide: FACTOR_CIPHER, useValue: factorCipher(options.masterKey) },
        { provide: FACTORS_CLOCK, useValue: options.clock ?? (() => Date.now()) },
        TotpRepository,
        RecoveryCodesRepository,
        PasskeysRepository,
        WebAuthnChallengesRepository,
        PendingSignInsRepository,
        TotpService,
        PasskeysService,
        PendingSignInsService,
      ],
      exports: [TotpService, PasskeysService, PendingSignInsService],
    };
  }
}
