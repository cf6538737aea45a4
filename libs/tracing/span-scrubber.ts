import type { Attributes } from '@opentelemetry/api';

/**
 * Where a caller is, and query strings (a swap search may hold an address or a reference, a
 * provider or webhook URL a token): never exported.
 */
const ALWAYS_DROPPED = [
  'url.query',
  'client.address',
  'http.client_ip',
  'net.peer.ip',
  'net.sock.peer.addr',
];
/**
 * A request's own path may hold a secret (a password-reset or invitation token): its route
 * template (`http.route`, `/partner/reset-password/:token`) stays, the path goes, with the peer.
 */
const DROPPED_ON_SERVER = [
  'url.path',
  'url.full',
  'http.target',
  'http.url',
  'network.peer.address',
  'network.peer.port',
  'net.peer.port',
];
const URLS = ['url.full', 'http.url', 'http.target'];

function withoutQuery(url: string): string {
  return url.split(/[?#]/, 1)[0];
}

/**
 * Takes what must never leave the process out of a finished span's attributes, in place
 * (docs/decisions.md, "Tracing"): the one gate every exported span passes.
 */
export function scrubAttributes(attributes: Attributes, server: boolean): void {
  for (const key of server ? [...ALWAYS_DROPPED, ...DROPPED_ON_SERVER] : ALWAYS_DROPPED) {
    delete attributes[key];
  }
  for (const key of URLS) {
    const value = attributes[key];
    if (typeof value === 'string') {
      attributes[key] = withoutQuery(value);
    }
  }
}
