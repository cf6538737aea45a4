import { createHash } from 'node:crypto';
import { AppError, ErrorCode } from '#app/errors';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * The `Idempotency-Key` header (DECISIONS §3.8): a UUID v4, optionally in the structured-field
 * quoted form. Returns it lowercased so case never splits one key in two.
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

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(canonical);
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** SHA-256 of the body as parsed JSON: key order and whitespace do not matter. */
export function bodyFingerprint(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(body)))
    .digest('hex');
}
