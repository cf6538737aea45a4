import {
  DynamicModule,
  type InjectionToken,
  Module,
  type ModuleMetadata,
  type Provider,
} from '@nestjs/common';
import { CREDENTIALS_CONFIG, type CredentialsConfig } from '#app/config';
import { FACTOR_CIPHER, FACTORS_CLOCK, factorCipher, type FactorsClock } from './factor.keys.js';
import { PasskeysRepository } from './passkeys.repository.js';
import { PasskeysService } from './passkeys.service.js';
import { PendingSignInsRepository } from './pending-sign-ins.repository.js';
import { PendingSignInsService } from './pending-sign-ins.service.js';
import { RecoveryCodesRepository } from './recovery-codes.repository.js';
import { TotpRepository } from './totp.repository.js';
import { TotpService } from './totp.service.js';
import { WebAuthnChallengesRepository } from './webauthn-challenges.repository.js';

/** The app's own clock, where it has one: a module exporting `token`, whose `now()` is a Date. */
export interface FactorsClockSource {
  imports: NonNullable<ModuleMetadata['imports']>;
  token: InjectionToken<{ now(): Date }>;
}

/** A function (tests), the app's clock, or by default the system's. */
export type FactorsClockOption = FactorsClock | FactorsClockSource | undefined;

function clockProvider(clock: FactorsClockOption): Provider {
  if (clock === undefined || typeof clock === 'function') {
    return { provide: FACTORS_CLOCK, useValue: clock ?? (() => Date.now()) };
  }
  return {
    provide: FACTORS_CLOCK,
    inject: [clock.token],
    useFactory:
      (source: { now(): Date }): FactorsClock =>
      () =>
        source.now().getTime(),
  };
}

/**
 * Second factors of dashboard users: TOTP with recovery codes, and passkeys; their keys are derived
 * from `CREDENTIALS_CONFIG`. `withClock` is structural, not configuration: it says which module
 * tells the factors the time (the app's clock, or a test's).
 */
@Module({})
export class DashboardFactorsModule {
  static withClock(clock?: FactorsClockOption): DynamicModule {
    return {
      module: DashboardFactorsModule,
      imports: typeof clock === 'object' ? clock.imports : [],
      providers: [
        {
          provide: FACTOR_CIPHER,
          useFactory: (credentials: CredentialsConfig) => factorCipher(credentials.encryptionKey),
          inject: [CREDENTIALS_CONFIG],
        },
        clockProvider(clock),
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
