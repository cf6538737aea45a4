import type { Request } from 'express';

/** The hosted widget page's own origin: the request's scheme and `Host` (behind a trusted proxy, the forwarded ones). */
export function ownOrigin(req: Request): string | null {
  const host = req.get('host');
  return host ? `${req.protocol}://${host.toLowerCase()}` : null;
}

/**
 * How a widget API request stands with the key's origins: `listed` (a partner page on the key's
 * list: answered with CORS headers), `same` (the hosted widget page itself: an `Origin` equal to
 * the service's own, or none with `Sec-Fetch-Site: same-origin`), or `refused` (anything else,
 * no `Origin` and no `Sec-Fetch-Site` included).
 */
export function originStanding(
  req: Request,
  allowedOrigins: readonly string[],
): 'listed' | 'same' | 'refused' {
  const origin = req.headers.origin;
  if (typeof origin === 'string') {
    if (allowedOrigins.includes(origin)) {
      return 'listed';
    }
    return origin === ownOrigin(req) ? 'same' : 'refused';
  }
  return req.headers['sec-fetch-site'] === 'same-origin' ? 'same' : 'refused';
}
