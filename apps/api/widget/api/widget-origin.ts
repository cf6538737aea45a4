import type { Request } from 'express';

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
/** The methods a browser may send to its own origin without an `Origin` header. */
const READS = new Set(['GET', 'HEAD']);

/**
 * The hosted widget page's own origins: `PUBLIC_URL`'s when it is set; without it only the
 * loopback origins of the port the request came in on (a local run). Never one taken from `Host`
 * or a forwarded header: a page anywhere can reach the service under a name of its own (DNS
 * rebinding) and then sends that name as both its `Origin` and its `Host`.
 */
export function ownOrigins(req: Request, publicUrl: string | null): readonly string[] {
  if (publicUrl !== null) {
    return [publicUrl];
  }
  const port = req.socket.localPort;
  if (port === undefined) {
    return [];
  }
  return LOOPBACK_HOSTS.map((host) => (port === 80 ? `http://${host}` : `http://${host}:${port}`));
}

/**
 * How a widget API request stands with the key's origins (docs/decisions.md, "The swap widget"):
 * `listed` (a partner page on the key's list: answered with CORS headers), `same` (the hosted
 * widget page itself: an `Origin` among the service's own, or a read without `Origin` that the
 * browser marks `Sec-Fetch-Site: same-origin`), or `refused` (anything else: any other `Origin`,
 * and any call without one that is not such a read, since browsers send `Origin` with every
 * other method).
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
    return ownOrigins(req, publicUrl).includes(origin) ? 'same' : 'refused';
  }
  return READS.has(req.method) && req.headers['sec-fetch-site'] === 'same-origin'
    ? 'same'
    : 'refused';
}
