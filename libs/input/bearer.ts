/**
 * The credentials of `Authorization: Bearer <token>`, or null. The scheme is case-insensitive and
 * may be followed by several spaces (RFC 9110 §11.4), the same for partner and admin routes.
 */
export function bearerToken(authorization: string | undefined): string | null {
  return /^bearer +(\S+)$/i.exec(authorization ?? '')?.[1] ?? null;
}
