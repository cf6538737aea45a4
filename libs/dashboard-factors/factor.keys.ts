import { hkdfSync } from 'node:crypto';
import { CredentialCipher } from '#app/partners';

/** DI token of the cipher that seals TOTP secrets and digests recovery codes. */
export const FACTOR_CIPHER = Symbol('FACTOR_CIPHER');
/** DI token of the clock (ms since the epoch) the factor services read; tests move it. */
export const FACTORS_CLOCK = Symbol('FACTORS_CLOCK');
export type FactorsClock = () => number;

/**
 * The credential cipher's construction under keys of their own: HKDF of the master key with a
 * purpose of its own, so a TOTP secret never shares a key with a partner secret and a recovery
 * code digest never matches a credential digest.
 */
export function factorCipher(masterKey: Buffer): CredentialCipher {
  const key = hkdfSync('sha256', masterKey, Buffer.alloc(0), 'swap-partners/dashboard-factors', 32);
  return new CredentialCipher(Buffer.from(key));
}
