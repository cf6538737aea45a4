import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction, Socket } from 'node:net';
import {
  checkAddress,
  checkWebhookUrl,
  resolveWithDns,
  type ResolveAll,
  type WebhookTargetPolicy,
} from './target.guard.js';
import type { WebhookSignatureHeaders } from './webhook.signer.js';

/**
 * A delivery counts only when a 2xx arrives within this time (docs/decisions.md, "Webhook delivery
 * in the poller").
 */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How much of a receiver's answer is read: enough to show, never enough to exhaust memory. */
export const WEBHOOK_RESPONSE_LIMIT_BYTES = 64 * 1024;
const ERROR_LENGTH = 200;

/** What one attempt got: the receiver's status, or why there was none; never a secret. */
export interface WebhookAttemptResult {
  delivered: boolean;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
  /** How much of the answer was read before the connection was dropped: at most 64 KiB. */
  bytesRead: number;
  /** No answer within the timeout: the receiver held the connection (and a sending slot). */
  timedOut: boolean;
  /** The target guard refused the URL or the address it leads to: no retry can succeed. */
  refused: boolean;
}

export interface WebhookRequest {
  url: string;
  livemode: boolean;
  body: string;
  headers: WebhookSignatureHeaders;
}

class RefusedTarget extends Error {}

/** A name that resolves to nothing yet may resolve later: a failure, not a refusal. */
class UnresolvedTarget extends Error {}

/**
 * `lookup` for the outgoing socket: the host is resolved once more at connect time and every
 * address is checked again, so a name that resolved to a public address when the endpoint was
 * saved cannot be pointed at an internal one later (DNS rebinding).
 */
function guardedLookup(policy: WebhookTargetPolicy, resolveAll: ResolveAll): LookupFunction {
  return (hostname, options, callback) => {
    resolveAll(hostname).then(
      (addresses: LookupAddress[]) => {
        const refused = addresses
          .map(({ address }) => checkAddress(address, policy))
          .find((verdict) => !verdict.allowed);
        if (refused && !refused.allowed) {
          callback(new RefusedTarget(`host ${refused.reason}`), '', 0);
        } else if (addresses.length === 0) {
          callback(new UnresolvedTarget('host does not resolve'), '', 0);
        } else if (options.all) {
          callback(null, addresses);
        } else {
          callback(null, addresses[0].address, addresses[0].family);
        }
      },
      (error: Error) => callback(error, '', 0),
    );
  };
}

function describe(error: unknown): string {
  if (error instanceof RefusedTarget) {
    return `refused: ${error.message}`;
  }
  if (error instanceof UnresolvedTarget) {
    return error.message;
  }
  const code = (error as { code?: unknown }).code;
  const text = typeof code === 'string' ? code : error instanceof Error ? error.message : 'error';
  return text.slice(0, ERROR_LENGTH);
}

/**
 * Sends one signed webhook: a `POST` of the event JSON that counts as delivered on a 2xx within
 * 10 s. Redirects are answers, not followed; the connected address is checked against the
 * policy; the answer is read up to 64 KiB and the connection then dropped.
 */
export async function sendWebhook(
  request: WebhookRequest,
  policy: WebhookTargetPolicy,
  resolveAll: ResolveAll = resolveWithDns,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<WebhookAttemptResult> {
  const started = performance.now();
  const finish = (
    outcome: Pick<WebhookAttemptResult, 'httpStatus' | 'error'> &
      Partial<Pick<WebhookAttemptResult, 'timedOut' | 'refused'>>,
    bytesRead = 0,
  ): WebhookAttemptResult => ({
    delivered: outcome.httpStatus !== null && outcome.httpStatus >= 200 && outcome.httpStatus < 300,
    timedOut: false,
    refused: false,
    ...outcome,
    durationMs: Math.round(performance.now() - started),
    bytesRead,
  });

  const verdict = checkWebhookUrl(request.url, request.livemode, policy);
  if (!verdict.allowed) {
    return finish({ httpStatus: null, error: `refused: url ${verdict.reason}`, refused: true });
  }
  const url = new URL(request.url);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const options: RequestOptions = {
    method: 'POST',
    agent: false,
    lookup: guardedLookup(policy, resolveAll),
    headers: {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(request.body),
      'user-agent': 'swap-partners-webhooks/1',
      ...request.headers,
    },
  };

  return new Promise<WebhookAttemptResult>((resolve) => {
    let settled = false;
    const settle = (result: WebhookAttemptResult) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        req.destroy();
        resolve(result);
      }
    };
    const req = send(url, options, (res: IncomingMessage) => {
      // The answer is drained, not kept: nobody reads it, and 64 KiB is all a receiver gets.
      let size = 0;
      const done = () => settle(finish({ httpStatus: res.statusCode ?? null, error: null }, size));
      res.on('data', (chunk: Buffer) => {
        size = Math.min(WEBHOOK_RESPONSE_LIMIT_BYTES, size + chunk.length);
        if (size >= WEBHOOK_RESPONSE_LIMIT_BYTES) {
          done();
        }
      });
      res.on('end', done);
      res.on('error', done);
    });
    const timer = setTimeout(
      () =>
        settle(
          finish({ httpStatus: null, error: `timeout after ${timeoutMs} ms`, timedOut: true }),
        ),
      timeoutMs,
    );
    req.on('socket', (socket: Socket) => {
      socket.once('connect', () => {
        const address = socket.remoteAddress ?? '';
        const check = checkAddress(address, policy);
        if (!check.allowed) {
          settle(
            finish({
              httpStatus: null,
              error: `refused: connected address ${check.reason}`,
              refused: true,
            }),
          );
        }
      });
    });
    req.on('error', (error) =>
      settle(
        finish({
          httpStatus: null,
          error: describe(error),
          refused: error instanceof RefusedTarget,
        }),
      ),
    );
    req.end(request.body);
  });
}
