import type { Server } from 'node:http';

export interface ServerTimeouts {
  /** The whole request, headers and body, must arrive within this. */
  requestTimeoutMs: number;
  /** Idle time of a kept-alive connection between requests. */
  keepAliveTimeoutMs: number;
}

/** Headers get at most 10 s of the request's time: a client that sends them slowly is no partner. */
const MAX_HEADERS_MS = 10_000;

/**
 * Node's defaults hold a request whose body trickles in for five minutes and look for one only
 * every 30 s. A request that runs out of time is answered 408 by the `clientError` handler.
 */
export function applyServerTimeouts(server: Server, timeouts: ServerTimeouts): void {
  server.requestTimeout = timeouts.requestTimeoutMs;
  server.headersTimeout = Math.min(MAX_HEADERS_MS, timeouts.requestTimeoutMs);
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  // Read when the server starts listening: how late past its limit a slow request is noticed.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    Math.min(1000, timeouts.requestTimeoutMs);
}
