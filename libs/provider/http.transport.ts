import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { Delivery } from './provider.error.js';

export interface HttpCall {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

/** The provider's answer, whatever its status. */
export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** No answer: `not_sent` when no connection was ever made, else `unknown`. */
export class TransportFailure extends Error {
  constructor(
    readonly delivery: Exclude<Delivery, 'refused'>,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TransportFailure';
  }
}

/** Far beyond any catalogue a provider lists; a larger answer is not one we can use. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}

/**
 * One HTTP exchange with a provider, bounded by `timeoutMs` from start to the last byte of the
 * answer, on kept-alive connections. It tells a failure before any byte could leave (refused
 * connection, unknown host, a connect that timed out: `not_sent`) from one after (`unknown`),
 * which `fetch` hides: the routing of a swap depends on it (docs/decisions.md, "Which failures
 * prove nothing was made").
 */
export class HttpTransport {
  private readonly httpAgent = new HttpAgent({ keepAlive: true });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true });

  constructor(private readonly timeoutMs: number) {}

  send(call: HttpCall): Promise<HttpAnswer> {
    const secure = call.url.protocol === 'https:';
    const body = call.body === undefined ? undefined : Buffer.from(call.body, 'utf8');
    return new Promise<HttpAnswer>((resolve, reject) => {
      let connected = false;
      let settled = false;
      const settle = (outcome: () => void): void => {
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          outcome();
        }
      };
      const fail = (message: string, cause?: unknown): void => {
        settle(() => {
          reject(new TransportFailure(connected ? 'unknown' : 'not_sent', message, { cause }));
        });
        request.destroy();
      };
      const request = (secure ? httpsRequest : httpRequest)(
        call.url,
        {
          method: call.method,
          headers: {
            ...call.headers,
            ...(body === undefined ? {} : { 'Content-Length': String(body.length) }),
          },
          agent: secure ? this.httpsAgent : this.httpAgent,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_ANSWER_BYTES) {
              fail(`answer larger than ${MAX_ANSWER_BYTES} bytes`);
              return;
            }
            chunks.push(chunk);
          });
          response.on('end', () => {
            settle(() => {
              resolve({
                status: response.statusCode ?? 0,
                headers: response.headers,
                body: Buffer.concat(chunks).toString('utf8'),
              });
            });
          });
          response.on('error', (error: Error) => fail(describe(error), error));
          response.on('close', () => {
            if (!response.complete) {
              fail('connection closed before the answer ended');
            }
          });
        },
      );
      const timer = setTimeout(() => fail(`timeout after ${this.timeoutMs} ms`), this.timeoutMs);
      request.on('socket', (socket: Socket) => {
        // A kept-alive socket is connected already; a new one counts from its (TLS) handshake.
        if (!socket.connecting) {
          connected = true;
          return;
        }
        socket.once(secure ? 'secureConnect' : 'connect', () => {
          connected = true;
        });
      });
      request.on('error', (error: Error) => fail(describe(error), error));
      request.end(body);
    });
  }
}
