import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components } from './schema.js';

type Schemas = components['schemas'];
export type SwapCreatedEvent = Schemas['SwapCreatedEvent'];
export type SwapStatusChangedEvent = Schemas['SwapStatusChangedEvent'];
export type EndpointPingEvent = Schemas['EndpointPingEvent'];
/** Any body a webhook carries: switch on `type` (TypeScript narrows `data` for you). */
export type WebhookEvent = SwapCreatedEvent | SwapStatusChangedEvent | EndpointPingEvent;

export { WebhookVerificationError };

/** Headers as Node (`req.headers`) or the Fetch API (`Headers`) give them. */
export type IncomingHeaders = Headers | Record<string, string | string[] | undefined>;

function headerRecord(headers: IncomingHeaders): Record<string, string> {
  const record: Record<string, string> = {};
  const entries =
    typeof (headers as Headers).forEach === 'function' && headers instanceof Headers
      ? [...headers.entries()]
      : Object.entries(headers as Record<string, string | string[] | undefined>);
  for (const [name, value] of entries) {
    if (value !== undefined) {
      record[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  return record;
}

/**
 * Verifies a delivery on its raw body (the exact bytes; a re-serialized object fails) with the
 * endpoint's `whsec_…` secret: the Standard Webhooks signature (either secret during a rotation's
 * overlap) and a timestamp within 5 minutes. Throws `WebhookVerificationError`, else answers the
 * typed event.
 */
export function verifyWebhook(
  rawBody: string | Buffer,
  headers: IncomingHeaders,
  secret: string,
): WebhookEvent {
  return new Webhook(secret).verify(rawBody, headerRecord(headers)) as WebhookEvent;
}

/** The Standard Webhooks headers for `body`, signed as the service signs its deliveries. */
export function signWebhook(
  secret: string,
  event: { id: string },
  body: string,
  at: Date = new Date(),
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': event.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(event.id, at, body),
  };
}

/** The parts of Node's (and Express's) request the handler reads. */
export interface NodeRequest extends AsyncIterable<unknown> {
  headers: Record<string, string | string[] | undefined>;
  /** A body parser may have read it already: a string or Buffer is used as the raw body. */
  body?: unknown;
}

/** The parts of Node's (and Express's) response the handler writes. */
export interface NodeResponse {
  statusCode: number;
  end(body?: string): unknown;
}

async function rawBodyOf(req: NodeRequest): Promise<string | Buffer> {
  if (typeof req.body === 'string' || Buffer.isBuffer(req.body)) {
    return req.body;
  }
  if (req.body !== undefined && req.body !== null && Object.keys(req.body).length > 0) {
    throw new Error(
      'The body was already parsed as JSON: mount the handler before express.json(), or use express.raw({ type: "application/json" }).',
    );
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  }
  return Buffer.concat(chunks);
}

/**
 * A Node/Express request handler: verifies each delivery, answers 400 to one that does not
 * verify, calls `onEvent` once per event id (deliveries are at least once; pass `seen` backed by
 * your database to dedupe across restarts), and answers 204 once it resolves (500 if it throws,
 * so the event is retried).
 *
 * `app.post('/hooks', webhookHandler(secret, async (event) => { … }))`
 */
export function webhookHandler(
  secret: string,
  onEvent: (event: WebhookEvent) => unknown,
  seen: { has(id: string): boolean | Promise<boolean>; add(id: string): unknown } = new Set(),
): (req: NodeRequest, res: NodeResponse) => Promise<void> {
  return async (req, res) => {
    let event: WebhookEvent;
    try {
      event = verifyWebhook(await rawBodyOf(req), req.headers, secret);
    } catch {
      res.statusCode = 400;
      res.end();
      return;
    }
    try {
      if (!(await seen.has(event.id))) {
        await onEvent(event);
        await seen.add(event.id);
      }
      res.statusCode = 204;
      res.end();
    } catch {
      res.statusCode = 500;
      res.end();
    }
  };
}
