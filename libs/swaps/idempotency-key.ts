import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import { AppError, ErrorCode } from '#app/errors';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * The `Idempotency-Key` header (docs/decisions.md, "Idempotency keys"): a UUID v4, optionally in
 * the structured-field quoted form. Returns it lowercased so case never splits one key in two.
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string {
  const raw = Array.isArray(header) ? header[0] : header;
  if (raw === undefined || raw.trim() === '') {
    throw new AppError(ErrorCode.MissingIdempotencyKey, 'The Idempotency-Key header is required.', {
      param: 'Idempotency-Key',
    });
  }
  const unquoted = raw.trim().replace(/^"(.*)"$/, '$1');
  if (!UUID_V4.test(unquoted)) {
    throw new AppError(ErrorCode.InvalidRequest, 'Idempotency-Key must be a UUID v4.', {
      param: 'Idempotency-Key',
    });
  }
  return unquoted.toLowerCase();
}

/**
 * SHA-256 of the body as parsed JSON with its keys sorted: key order and whitespace do not matter.
 * For the string fields of a swap body this is byte for byte what fingerprints stored before
 * the library took over, so a retry across a deploy still matches its key.
 */
export function bodyFingerprint(body: object): string {
  return createHash('sha256').update(stringify(body)).digest('hex');
}
