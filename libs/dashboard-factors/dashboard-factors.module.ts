import {
  DynamicModule,
  type InjectionToken,
  Module,
  type ModuleMetadata,
  type Provider,
} from '@nestjs/common';
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

export interface DashboardFactorsOptions {
  /** `CREDENTIAL_ENCRYPTION_KEY`; the factors' own keys are derived from it. */
  masterKey: Buffer;
  /** A function (tests), the app's clock, or by default the system's. */
  clock?: FactorsClock | FactorsClockSource;
}

function clockProvider(clock: DashboardFactorsOptions['clock']): Provider {
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

/** Second factors of dashboard users: TOTP with recovery codes, and passkeys. */
@Module({})
export class DashboardFactorsModule {
  static forRoot(options: DashboardFactorsOptions): DynamicModule {
    return {
      module: DashboardFactorsModule,
      imports: typeof options.clock === 'object' ? options.clock.imports : [],
      providers: [
        { provide: FACTOR_CIPHER, useValue: factorCipher(options.masterKey) },
        clockProvider(options.clock),
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
