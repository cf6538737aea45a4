import { randomInt } from 'node:crypto';
import { generateSecret, generateURI, verifySync } from 'otplib';
import QRCode from 'qrcode';

/** The name authenticator apps show above the account. */
export const TOTP_ISSUER = 'Swap Partners';
/** RFC 6238 defaults, the only parameters every authenticator app supports. */
const PERIOD_SECONDS = 30;
/** One step either side of now: a phone a little fast or slow, or a code typed as it changes. */
const TOLERANCE_SECONDS = 30;
const TOTP_CODE = /^[0-9]{6}$/;

/** How many recovery codes a user gets at once. */
export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const RECOVERY_CODE_LENGTH = 10;
const RECOVERY_CODE = /^[a-z2-7]{10}$/;
/** Longer input is no code of ours; bounding it first keeps normalization cheap. */
const MAX_INPUT_LENGTH = 64;

/** A new base32 TOTP secret of 160 bits, as RFC 4226 recommends. */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The `otpauth://` URI an authenticator app reads from the QR code. */
export function otpauthUri(secret: string, accountName: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: accountName, secret });
}

/** The secret in groups of four, easier to type into an app by hand. */
export function manualKey(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * The QR code of `uri` as an SVG element to place in a page as it is: no script, no style
 * attribute (so the page's CSP holds), and an accessible name.
 */
export async function qrCodeSvg(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return svg
    .trim()
    .replace(
      /^<svg /,
      '<svg role="img" aria-label="QR code for your authenticator app" width="200" height="200" ',
    );
}

/** A typed code without the spaces people add ("123 456"); null when it cannot be a TOTP code. */
export function normalizeTotpCode(input: string): string | null {
  if (input.length > MAX_INPUT_LENGTH) {
    return null;
  }
  const code = input.replace(/\s+/g, '');
  return TOTP_CODE.test(code) ? code : null;
}

/**
 * The time step at which `code` is valid for `secret` around `nowMs`, if it is later than
 * `afterStep` (the last step used, so a code works once); null otherwise.
 */
export function matchTotp(
  secret: string,
  code: string,
  nowMs: number,
  afterStep: number | null,
): number | null {
  const result = verifySync({
    secret,
    token: code,
    period: PERIOD_SECONDS,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** Ten fresh recovery codes, shown as `abcde-fghij` (50 bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from(
      { length: RECOVERY_CODE_LENGTH },
      () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
    ).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A typed recovery code without case, spaces or dashes; null when it cannot be one. */
export function normalizeRecoveryCode(input: string): string | null {
  if (input.length > MAX_INPUT_LENGTH) {
    return null;
  }
  const code = input.replace(/[\s-]+/g, '').toLowerCase();
  return RECOVERY_CODE.test(code) ? code : null;
}
