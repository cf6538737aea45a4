import { AppError, ErrorCode } from '#app/errors';
import { PUBLIC_KEY_PATTERN } from './credential.cipher.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An id that cannot exist is simply not found. Checking the format first also keeps Postgres'
 * uuid cast from ever failing (which would surface as a 500).
 */
export function assertOrganizationId(id: string): string {
  if (!UUID.test(id)) {
    throw new AppError(ErrorCode.NotFound, 'Organization not found.');
  }
  return id.toLowerCase();
}

export function assertPublicKey(publicKey: string): string {
  if (!PUBLIC_KEY_PATTERN.test(publicKey)) {
    throw new AppError(ErrorCode.NotFound, 'Credential not found.');
  }
  return publicKey;
}
