import { dictionary } from '@zxcvbn-ts/language-common';

export const MIN_PASSWORD_LENGTH = 12;
/** argon2 takes any length; a cap keeps a megabyte "password" from costing anything. */
export const MAX_PASSWORD_LENGTH = 256;

/**
 * zxcvbn-ts's list of common passwords (about 49,000, from leaked-password corpora), kept up to
 * date by that project; compared case-insensitively.
 */
let common: Set<string> | undefined;

/** Built on first use, so processes that never check a password (the CLI) do not pay for it. */
function commonPasswords(): Set<string> {
  common ??= new Set(
    (dictionary['passwords-common'] as readonly string[]).map((word) => word.toLowerCase()),
  );
  return common;
}

/** Why a new password is refused, in words for the person choosing it; null: acceptable. */
export function passwordProblem(password: string, email?: string): string | null {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) {
    return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  }
  if (length > MAX_PASSWORD_LENGTH) {
    return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  }
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower) || (email !== undefined && lower === email.toLowerCase())) {
    return 'This password is too common: choose one that is harder to guess.';
  }
  if (new Set(password).size < 4) {
    return 'This password repeats too few characters: choose one that is harder to guess.';
  }
  return null;
}

export function commonPasswordCount(): number {
  return commonPasswords().size;
}
