import { isPlainText } from '#app/input';
import type { Request } from 'express';

/**
 * The origin the dashboard is served at: `PUBLIC_URL` when set, else the request's own scheme
 * and `Host` (behind a trusted proxy, the forwarded ones).
 */
export function serviceOrigin(req: Request, publicUrl: string | null): string {
  return publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/**
 * A state-changing request must come from our own pages: an `Origin` equal to ours or, from a
 * browser that sends none, `Sec-Fetch-Site: same-origin`. Anything else is refused.
 */
export function isSameOrigin(req: Request, publicUrl: string | null): boolean {
  const origin = req.headers.origin;
  if (typeof origin === 'string' && origin !== '') {
    return origin === serviceOrigin(req, publicUrl);
  }
  return req.headers['sec-fetch-site'] === 'same-origin';
}

/**
 * Where to go after signing in: only a path on this site under `/partner` (never `//host`,
 * a scheme, a backslash or a control character), else the Overview.
 */
export function safeNext(value: unknown): string {
  if (
    typeof value !== 'string' ||
    value.length > 2000 ||
    !/^\/partner(?:[/?#]|$)/.test(value) ||
    value.includes('\\') ||
    !isPlainText(value) ||
    value.includes('//') ||
    value.startsWith('/partner/login') ||
    value.startsWith('/partner/logout')
  ) {
    return '/partner';
  }
  return value;
}
