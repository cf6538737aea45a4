import { isIP } from 'node:net';

/** Who the passkeys belong to: the site's domain (`id`) and the origin pages are served from. */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

/** What the dashboard shows as the passkey's site in the browser's prompt. */
export const RELYING_PARTY_NAME = 'Swap Partners';

/** Where the request came from: `PUBLIC_URL` when set, else its scheme and `Host`. */
export interface RequestOrigin {
  publicUrl: string | null;
  protocol: string;
  host: string | undefined;
}

/**
 * The relying party for a request, or null where WebAuthn cannot work: browsers offer it only in
 * a secure context (https, or `localhost` and its subdomains over http) and only for a domain
 * name, never an IP address. The dashboard then shows no passkey button at all.
 */
export function relyingPartyFor(request: RequestOrigin): RelyingParty | null {
  const url = parseOrigin(request);
  if (url === null) {
    return null;
  }
  const hostname = url.hostname;
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (isIP(bare) !== 0 || hostname.endsWith('.')) {
    return null;
  }
  const local = hostname === 'localhost' || hostname.endsWith('.localhost');
  if (url.protocol !== 'https:' && !(local && url.protocol === 'http:')) {
    return null;
  }
  return { id: hostname, origin: url.origin, name: RELYING_PARTY_NAME };
}

function parseOrigin({ publicUrl, protocol, host }: RequestOrigin): URL | null {
  const text = publicUrl ?? (host === undefined ? null : `${protocol}://${host}`);
  if (text === null || !URL.canParse(text)) {
    return null;
  }
  const url = new URL(text);
  // A Host header with a path, credentials or query is no host: refuse it rather than trim it.
  if (publicUrl === null && (url.host !== host?.toLowerCase() || url.username !== '')) {
    return null;
  }
  return url;
}
