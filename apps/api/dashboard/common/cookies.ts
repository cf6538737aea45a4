import type { CookieOptions, Request } from 'express';

export const SESSION_COOKIE = 'partner_session';
export const CSRF_COOKIE = 'partner_csrf';
export const FLASH_COOKIE = 'partner_flash';
export const DASHBOARD_PATH = '/partner';

/**
 * Every dashboard cookie: HttpOnly, SameSite=Lax, only sent to `/partner`, and Secure whenever
 * the request is https, directly or through a trusted proxy (`req.secure` follows
 * `TRUST_PROXY_HOPS`).
 */
export function dashboardCookie(req: Request, extra: CookieOptions = {}): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', path: DASHBOARD_PATH, secure: req.secure, ...extra };
}

/** The cookie's value, or undefined (a header written by hand may repeat or mangle it). */
export function readCookie(req: Request, name: string): string | undefined {
  const cookies = (req as { cookies?: Record<string, unknown> }).cookies;
  const value: unknown = cookies?.[name];
  return typeof value === 'string' ? value : undefined;
}
