import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import { AppError, ErrorCode } from '#app/errors';

/** A UUID v4 in either case; the OpenAPI document states the same pattern for the header. */
export const UUID_V4 =
  /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$/;

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
