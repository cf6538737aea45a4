import { SwapPartners, type Event } from './client.js';
import { signWebhook } from './webhooks.js';

export interface ListenOptions {
  baseUrl: string;
  credential: string;
  /** Your local receiver, e.g. `http://localhost:8080/hooks`. */
  forwardTo: string;
  /** The `whsec_…` secret the forwarded requests are signed with (your receiver verifies with it). */
  secret: string;
  /** Start after this event; by default only events written from now on are forwarded. */
  after?: string;
  /** How often the feed is read once caught up. Default 1000 ms. */
  intervalMs?: number;
  signal?: AbortSignal;
  /** One line per forwarded event. */
  log?: (line: string) => void;
  fetch?: typeof fetch;
}

/** What one forward came to: the receiver's status, or why there was none. */
export interface Forwarded {
  event: Event;
  status: number | null;
  error: string | null;
}

/**
 * Reads the event feed with a test or live credential and POSTs each event to a local URL with
 * the Standard Webhooks headers, signed as the service signs its deliveries, so a receiver can be
 * tested without a public URL. Each event is forwarded once, in the feed's order; a receiver that
 * fails is reported, not retried. Resolves when `signal` aborts.
 */
export async function listen(
  options: ListenOptions,
  onForward?: (forwarded: Forwarded) => void,
): Promise<void> {
  const client = new SwapPartners({
    baseUrl: options.baseUrl,
    credential: options.credential,
    fetch: options.fetch,
  });
  const send = options.fetch ?? fetch;
  let after = options.after;
  if (after === undefined) {
    // Only what happens from now on: skip to the end of the feed.
    for await (const event of client.events.iterate()) {
      after = event.id;
    }
  }
  const events = client.events.iterate({
    after,
    follow: { intervalMs: options.intervalMs ?? 1000, signal: options.signal },
  });
  options.log?.(`Forwarding events to ${options.forwardTo} (Ctrl-C to stop)`);
  for await (const event of events) {
    const body = JSON.stringify(event);
    let forwarded: Forwarded;
    try {
      const answer = await send(options.forwardTo, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...signWebhook(options.secret, event, body),
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(10_000),
      });
      await answer.body?.cancel();
      forwarded = { event, status: answer.status, error: null };
    } catch (error: unknown) {
      forwarded = {
        event,
        status: null,
        error: error instanceof Error ? error.message : String(error),
      };
    }
    options.log?.(
      `${event.createdAt}  ${event.type}  ${event.id}  -> ${forwarded.status ?? forwarded.error}`,
    );
    onForward?.(forwarded);
  }
}
