import { Inject, Injectable, Logger } from '@nestjs/common';
import type { CredentialCipher } from '#app/partners';
import type { DashboardTotpEntity } from '#app/persistence';
import { FACTOR_CIPHER, FACTORS_CLOCK, type FactorsClock } from './factor.keys.js';
import { RecoveryCodesRepository } from './recovery-codes.repository.js';
import {
  manualKey,
  matchTotp,
  newRecoveryCodes,
  newTotpSecret,
  normalizeRecoveryCode,
  normalizeTotpCode,
  otpauthUri,
  qrCodeSvg,
} from './totp.codes.js';
import { TotpRepository } from './totp.repository.js';

/** What an enrolment page shows: the QR code and, for typing by hand, the key. */
export interface TotpEnrolment {
  /** The base32 secret in groups of four. */
  manualKey: string;
  /** The `otpauth://` URI the QR code holds. */
  uri: string;
  /** The QR code, an SVG element safe to place in a page as it is. */
  qrSvg: string;
}

export interface TotpStatus {
  enabled: boolean;
  /** An enrolment waits for its first code. */
  pending: boolean;
  /** Unused recovery codes; 0 while TOTP is off. */
  recoveryCodesLeft: number;
}

/** Which second factor a sign-in step accepted. */
export type TotpFactor = 'totp' | 'recovery_code';

/**
 * TOTP (RFC 6238) with single-use recovery codes for dashboard users. The secret is sealed at
 * rest; a code is accepted once (its time step is taken atomically); recovery codes are kept as
 * keyed digests and shown only when made. Re-authentication before a change is the caller's.
 */
@Injectable()
export class TotpService {
  private readonly logger = new Logger(TotpService.name);

  constructor(
    private readonly totp: TotpRepository,
    private readonly recoveryCodes: RecoveryCodesRepository,
    @Inject(FACTOR_CIPHER) private readonly cipher: CredentialCipher,
    @Inject(FACTORS_CLOCK) private readonly clock: FactorsClock,
  ) {}

  async status(userId: string): Promise<TotpStatus> {
    const stored = await this.totp.find(userId);
    const enabled = isConfirmed(stored);
    return {
      enabled,
      pending: stored !== null && !enabled,
      recoveryCodesLeft: enabled ? await this.recoveryCodes.countUnused(userId) : 0,
    };
  }

  async isEnabled(userId: string): Promise<boolean> {
    return isConfirmed(await this.totp.find(userId));
  }

  /**
   * Starts (or starts over) an enrolment with a new secret; null when TOTP is already on, which
   * must be disabled first. `accountName` (the user's email) labels the entry in the app.
   */
  async beginEnrolment(userId: string, accountName: string): Promise<TotpEnrolment | null> {
    const stored = await this.totp.savePending(
      userId,
      this.cipher.encrypt(newTotpSecret(), { purpose: 'totp', rowId: userId }),
      new Date(this.clock()),
    );
    if (stored.confirmedAt !== null) {
      return null;
    }
    return this.enrolmentOf(
      this.cipher.decrypt(stored.secretCiphertext, { purpose: 'totp', rowId: userId }),
      accountName,
    );
  }

  /** The enrolment waiting for its first code, shown again (after a wrong code); else null. */
  async pendingEnrolment(userId: string, accountName: string): Promise<TotpEnrolment | null> {
    const stored = await this.totp.find(userId);
    if (stored === null || stored.confirmedAt !== null) {
      return null;
    }
    return this.enrolmentOf(
      this.cipher.decrypt(stored.secretCiphertext, { purpose: 'totp', rowId: userId }),
      accountName,
    );
  }

  /**
   * Turns TOTP on when `code` is right for the pending secret, and answers the new recovery
   * codes, in clear this once; null for a wrong code or no pending enrolment.
   */
  async confirmEnrolment(userId: string, code: string): Promise<string[] | null> {
    const stored = await this.totp.find(userId);
    const normalized = normalizeTotpCode(code);
    if (stored === null || stored.confirmedAt !== null || normalized === null) {
      return null;
    }
    const now = this.clock();
    const step = matchTotp(
      this.cipher.decrypt(stored.secretCiphertext, { purpose: 'totp', rowId: userId }),
      normalized,
      now,
      stored.lastUsedStep,
    );
    if (step === null || !(await this.totp.claimStep(userId, step, true, new Date(now)))) {
      return null;
    }
    this.logger.log({ userId }, 'TOTP enabled');
    return this.issueRecoveryCodes(userId);
  }

  /**
   * Checks a second-factor entry: a current TOTP code not used before, or an unused recovery
   * code, which is then spent. Null when TOTP is off or the entry is neither.
   */
  async verify(userId: string, input: string): Promise<TotpFactor | null> {
    const stored = await this.totp.find(userId);
    if (stored === null || stored.confirmedAt === null) {
      return null;
    }
    const now = this.clock();
    const code = normalizeTotpCode(input);
    if (code !== null) {
      const secret = this.cipher.decrypt(stored.secretCiphertext, {
        purpose: 'totp',
        rowId: userId,
      });
      const step = matchTotp(secret, code, now, stored.lastUsedStep);
      return step !== null && (await this.totp.claimStep(userId, step, false, new Date(now)))
        ? 'totp'
        : null;
    }
    const recovery = normalizeRecoveryCode(input);
    if (
      recovery !== null &&
      (await this.recoveryCodes.use(userId, this.cipher.digest(recovery), new Date(now)))
    ) {
      this.logger.log({ userId }, 'Recovery code used');
      return 'recovery_code';
    }
    return null;
  }

  /** New recovery codes in place of the old ones; null while TOTP is off. */
  async regenerateRecoveryCodes(userId: string): Promise<string[] | null> {
    return (await this.isEnabled(userId)) ? this.issueRecoveryCodes(userId) : null;
  }

  /** Turns TOTP off and drops its recovery codes; false when it was neither on nor pending. */
  async disable(userId: string): Promise<boolean> {
    await this.recoveryCodes.deleteAll(userId);
    const removed = await this.totp.delete(userId);
    if (removed) {
      this.logger.log({ userId }, 'TOTP disabled');
    }
    return removed;
  }

  private async issueRecoveryCodes(userId: string): Promise<string[]> {
    const codes = newRecoveryCodes();
    await this.recoveryCodes.replace(
      userId,
      codes.map((code) => this.cipher.digest(code.replace('-', ''))),
      new Date(this.clock()),
    );
    return codes;
  }

  private async enrolmentOf(secret: string, accountName: string): Promise<TotpEnrolment> {
    const uri = otpauthUri(secret, accountName);
    return { manualKey: manualKey(secret), uri, qrSvg: await qrCodeSvg(uri) };
  }
}

function isConfirmed(stored: DashboardTotpEntity | null): boolean {
  return stored !== null && stored.confirmedAt !== null;
}
