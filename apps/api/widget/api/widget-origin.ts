import type { Request } from 'express';

/** Where the service is reached: `PUBLIC_URL`'s origin, or null for each request's own. */
export class WidgetSettings {
  constructor(readonly publicUrl: string | null) {}
}

/**
 * The hosted widget page's own origin: `PUBLIC_URL` when set, else the request's scheme and
 * `Host` (behind a trusted proxy, the forwarded ones).
 */
export function ownOrigin(req: Request, publicUrl: string | null): string | null {
  if (publicUrl !== null) {
    return publicUrl;
  }
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
  publicUrl: string | null,
): 'listed' | 'same' | 'refused' {
  const origin = req.headers.origin;
  if (typeof origin === 'string') {
    if (allowedOrigins.includes(origin)) {
      return 'listed';
    }
    return origin === ownOrigin(req, publicUrl) ? 'same' : 'refused';
  }
  return req.headers['sec-fetch-site'] === 'same-origin' ? 'same' : 'refused';
}
