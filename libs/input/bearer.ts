import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The credentials of `Authorization: Bearer <token>`, or null. The scheme is case-insensitive and
 * may be followed by several spaces (RFC 9110 §11.4), the same for partner and admin routes.
 */
export function bearerToken(authorization: string | undefined): string | null {
  return /^bearer +(\S+)$/i.exec(authorization ?? '')?.[1] ?? null;
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * True when `Authorization` is `Bearer <token>` for exactly this operator token (`ADMIN_TOKEN`):
 * the api's `/admin` and `/metrics`, the poller's `/metrics`. Both sides are hashed first so the
 * comparison takes the same time whatever the presented value's length or content.
 */
export function adminBearerMatches(authorization: string | undefined, token: string): boolean {
  const presented = bearerToken(authorization) ?? '';
  return timingSafeEqual(sha256(presented), sha256(token)) && presented.length > 0;
}
