import createClient, { type Client } from 'openapi-fetch';
import { ConnectionError, SwapPartnersError, toError, type OperationId } from './errors.js';
import type { components, paths } from './schema.js';

type Schemas = components['schemas'];
export type Currency = Schemas['CurrencyView'];
export type Pair = Schemas['PairView'];
export type Quote = Schemas['QuoteView'];
export type Swap = Schemas['SwapResource'];
export type SwapStatus = Swap['status'];
export type Event = Schemas['EventResource'];
export type WebhookEndpoint = Schemas['WebhookEndpointResource'];
export type WebhookAttempt = Schemas['WebhookAttemptResource'];
export type CreateQuoteParams = Schemas['CreateQuoteDto'];
export type CreateSwapParams = Schemas['CreateSwapDto'];
export type ValidateAddressParams = Schemas['ValidateAddressDto'];
export type CreateWebhookEndpointParams = Schemas['CreateWebhookEndpointDto'];
export type UpdateWebhookEndpointParams = Schemas['UpdateWebhookEndpointDto'];
export type TestDepositParams = Schemas['TestDepositDto'];
export type TestStatus = Schemas['TestStatusDto']['status'];
export type ListSwapsParams = NonNullable<paths['/v1/swaps']['get']['parameters']['query']>;
export type ListEventsParams = NonNullable<paths['/v1/events']['get']['parameters']['query']>;

export interface ClientOptions {
  /** Where the API answers, e.g. `https://api.example.com` or `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** `pk_live_…:sk_live_…` or, in test mode, `pk_test_…:sk_test_…`. */
  credential: string;
  /** How often a 429 (and, for reads, a lost connection or a 502/503) is retried. Default 3. */
  maxRetries?: number;
  /** A `fetch` of your own (a proxy, a test double). */
  fetch?: typeof fetch;
  /** How the client waits between retries; tests make it instant. */
  sleep?: (ms: number) => Promise<void>;
}

/** Whether a call may be sent again and when (the contract's rules 11 and 12). */
type RetryKind =
  /** GET: safe to repeat; retried on 429, a lost connection and 502/503. */
  | 'read'
  /** `POST /v1/swaps` with its Idempotency-Key: retried on 429 and a lost connection, never on 5xx. */
  | 'create'
  /** Any other write: retried on 429 only (the service refused it before doing anything). */
  | 'write';

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Seconds of `Retry-After` (whole seconds per the API), else the envelope's `retry_after_ms`. */
function retryDelayMs(response: Response, error: unknown): number {
  const header = Number(response.headers.get('retry-after'));
  if (Number.isFinite(header) && header > 0) {
    return header * 1000;
  }
  const ms = (error as { error?: { retry_after_ms?: number | null } } | undefined)?.error
    ?.retry_after_ms;
  return typeof ms === 'number' && ms > 0 ? ms : 1000;
}

/**
 * The Swap Partners API, typed from its OpenAPI document. Every method answers the resource or
 * throws a `SwapPartnersError` subclass (`ValidationError`, `ConflictError`, …) carrying `code`,
 * `param`, `requestId` and the `operation` it answered, or a `ConnectionError` when no answer came.
 * `isErrorOf(error, 'Swaps_create')` narrows `code` to the codes that operation can answer.
 */
export class SwapPartners {
  /** The underlying openapi-fetch client, for anything the methods below do not cover. */
  readonly raw: Client<paths>;
  private readonly maxRetries: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(options: ClientOptions) {
    this.raw = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/$/, ''),
      headers: { Authorization: `Bearer ${options.credential}` },
      fetch: options.fetch,
    });
    this.maxRetries = options.maxRetries ?? 3;
    this.sleep = options.sleep ?? sleepFor;
  }

  /**
   * Sends, retrying as `kind` allows, and returns the data of a 2xx or throws the typed error,
   * which names `operation` so that `isErrorOf` can narrow its `code`.
   */
  private async call<T>(
    kind: RetryKind,
    operation: OperationId,
    send: () => Promise<Answer<T>>,
  ): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      let answer: Answer<T>;
      try {
        answer = await send();
      } catch (cause: unknown) {
        // No answer: a read or a keyed create is safe to send again (the key dedupes the create).
        if (kind !== 'write' && attempt < this.maxRetries) {
          await this.sleep(Math.min(8000, 250 * 2 ** attempt));
          continue;
        }
        throw new ConnectionError(
          cause instanceof Error ? cause.message : 'The request got no answer.',
          { cause },
        );
      }
      const { response } = answer;
      if (response.ok) {
        return answer.data as T;
      }
      const retryable =
        response.status === 429 ||
        (kind === 'read' && (response.status === 502 || response.status === 503));
      if (retryable && attempt < this.maxRetries) {
        await this.sleep(
          response.status === 429
            ? retryDelayMs(response, answer.error)
            : Math.min(8000, 250 * 2 ** attempt),
        );
        continue;
      }
      throw toError(response, answer.error, operation);
    }
  }

  readonly currencies = {
    /** Every listed currency; with `lite: true`, only their tickers. */
    list: async (query: { lite?: boolean } = {}): Promise<Currency[] | string[]> =>
      (
        await this.call('read', 'Currencies_list', () =>
          this.raw.GET('/v1/currencies', { params: { query } }),
        )
      ).currencies,
  };

  readonly pairs = {
    get: async (query: { from: string; to: string }): Promise<Pair> =>
      (await this.call('read', 'Pairs_get', () => this.raw.GET('/v1/pairs', { params: { query } })))
        .pair,
  };

  readonly addresses = {
    validate: (body: ValidateAddressParams) =>
      this.call('write', 'Addresses_validate', () =>
        this.raw.POST('/v1/addresses/validate', { body }),
      ),
  };

  readonly quotes = {
    create: async (body: CreateQuoteParams): Promise<Quote> =>
      (await this.call('write', 'Quotes_create', () => this.raw.POST('/v1/quotes', { body })))
        .quote,
  };

  readonly swaps = {
    /**
     * Creates a swap under an `Idempotency-Key` (a new UUID v4 unless you give one), retrying a
     * 429 after `Retry-After` and a lost answer with the same key. A 5xx is thrown, never
     * retried blindly: recover with `createOrRecover`, or list by `partnerReferenceId` yourself.
     */
    create: async (
      body: CreateSwapParams,
      options: { idempotencyKey?: string } = {},
    ): Promise<Swap> => {
      const key = options.idempotencyKey ?? crypto.randomUUID();
      try {
        return (
          await this.call('create', 'Swaps_create', () =>
            this.raw.POST('/v1/swaps', {
              params: { header: { 'Idempotency-Key': key } },
              body,
            }),
          )
        ).swap;
      } catch (error: unknown) {
        if (error instanceof SwapPartnersError || error instanceof ConnectionError) {
          Object.assign(error, { idempotencyKey: key });
        }
        throw error;
      }
    },

    /**
     * The contract's recovery after a 5xx on create (rule 11): look the swap up by its
     * `partnerReferenceId` for up to `waitMs` (30 s); if it never shows, create it again under a
     * new key. Needs a `partnerReferenceId` unique to this swap.
     */
    createOrRecover: async (
      body: CreateSwapParams & { partnerReferenceId: string },
      options: { waitMs?: number; pollMs?: number } = {},
    ): Promise<{ swap: Swap; recovered: boolean }> => {
      try {
        return { swap: await this.swaps.create(body), recovered: false };
      } catch (error: unknown) {
        const serverSide = error instanceof SwapPartnersError && error.status >= 500;
        if (!serverSide && !(error instanceof ConnectionError)) {
          throw error;
        }
      }
      const deadline = Date.now() + (options.waitMs ?? 30_000);
      for (;;) {
        const [found] = await this.swaps.list({
          partnerReferenceId: body.partnerReferenceId,
          limit: 1,
        });
        if (found) {
          return { swap: found, recovered: true };
        }
        if (Date.now() >= deadline) {
          break;
        }
        await this.sleep(options.pollMs ?? 2000);
      }
      return { swap: await this.swaps.create(body), recovered: false };
    },

    get: async (id: string): Promise<Swap> =>
      (
        await this.call('read', 'Swaps_get', () =>
          this.raw.GET('/v1/swaps/{id}', { params: { path: { id } } }),
        )
      ).swap,

    list: async (query: ListSwapsParams = {}): Promise<Swap[]> =>
      (
        await this.call('read', 'Swaps_list', () =>
          this.raw.GET('/v1/swaps', { params: { query } }),
        )
      ).swaps,

    /**
     * Every swap (newest first), page after page: `for await (const swap of client.swaps.iterate())`.
     * Each page starts after the last swap of the one before (`startingAfter`), so swaps created
     * while it runs never shift a page: each swap that existed when it started comes once.
     */
    iterate: (
      query: Omit<ListSwapsParams, 'offset' | 'startingAfter'> = {},
    ): AsyncIterable<Swap> => {
      const list = this.swaps.list;
      const limit = query.limit ?? 100;
      return {
        async *[Symbol.asyncIterator]() {
          let startingAfter: string | undefined;
          for (;;) {
            const page = await list({ ...query, limit, ...(startingAfter && { startingAfter }) });
            yield* page;
            if (page.length < limit) {
              return;
            }
            startingAfter = page[page.length - 1].id;
          }
        },
      };
    },

    /** The swap's events, oldest first, from `swap.created`. */
    events: async (id: string): Promise<Event[]> =>
      (
        await this.call('read', 'Events_forSwap', () =>
          this.raw.GET('/v1/swaps/{id}/events', { params: { path: { id } } }),
        )
      ).events,
  };

  readonly events = {
    list: (query: ListEventsParams = {}) =>
      this.call('read', 'Events_feed', () => this.raw.GET('/v1/events', { params: { query } })),

    /**
     * Every event after `after`, in the feed's stable order. `iterator.after` is the id of the last
     * event yielded: store it, and start from it next time to miss none and see none twice. With
     * `follow`, it waits for new events instead of ending once caught up (until `signal` aborts).
     */
    iterate: (
      options: {
        after?: string;
        type?: ListEventsParams['type'];
        pageSize?: number;
        follow?: { intervalMs?: number; signal?: AbortSignal };
      } = {},
    ): EventIterator => new EventIterator(this, options),
  };

  readonly webhookEndpoints = {
    create: async (body: CreateWebhookEndpointParams): Promise<WebhookEndpoint> =>
      (
        await this.call('write', 'WebhookEndpoints_create', () =>
          this.raw.POST('/v1/webhook_endpoints', { body }),
        )
      ).webhookEndpoint,
    list: async (): Promise<WebhookEndpoint[]> =>
      (
        await this.call('read', 'WebhookEndpoints_list', () =>
          this.raw.GET('/v1/webhook_endpoints'),
        )
      ).webhookEndpoints,
    get: async (id: string): Promise<WebhookEndpoint> =>
      (
        await this.call('read', 'WebhookEndpoints_get', () =>
          this.raw.GET('/v1/webhook_endpoints/{id}', { params: { path: { id } } }),
        )
      ).webhookEndpoint,
    update: async (id: string, body: UpdateWebhookEndpointParams): Promise<WebhookEndpoint> =>
      (
        await this.call('write', 'WebhookEndpoints_update', () =>
          this.raw.PATCH('/v1/webhook_endpoints/{id}', { params: { path: { id } }, body }),
        )
      ).webhookEndpoint,
    delete: async (id: string): Promise<void> => {
      await this.call('write', 'WebhookEndpoints_delete', () =>
        this.raw.DELETE('/v1/webhook_endpoints/{id}', { params: { path: { id } } }),
      );
    },
    rotateSecret: async (id: string): Promise<WebhookEndpoint> =>
      (
        await this.call('write', 'WebhookEndpoints_rotateSecret', () =>
          this.raw.POST('/v1/webhook_endpoints/{id}/rotate_secret', {
            params: { path: { id } },
            body: {},
          }),
        )
      ).webhookEndpoint,
    deliveries: async (id: string, query: { limit?: number } = {}): Promise<WebhookAttempt[]> =>
      (
        await this.call('read', 'WebhookEndpoints_deliveries', () =>
          this.raw.GET('/v1/webhook_endpoints/{id}/deliveries', {
            params: { path: { id }, query },
          }),
        )
      ).deliveries,
    ping: async (id: string): Promise<WebhookAttempt> =>
      (
        await this.call('write', 'WebhookEndpoints_ping', () =>
          this.raw.POST('/v1/webhook_endpoints/{id}/ping', { params: { path: { id } }, body: {} }),
        )
      ).delivery,
  };

  /** Test mode only (a `pk_test_` credential): move a test swap through its lifecycle. */
  readonly testHelpers = {
    deposit: async (id: string, body: TestDepositParams = {}): Promise<Swap> =>
      (
        await this.call('write', 'TestHelpers_deposit', () =>
          this.raw.POST('/v1/test_helpers/swaps/{id}/deposit', { params: { path: { id } }, body }),
        )
      ).swap,
    forceStatus: async (id: string, status: TestStatus): Promise<Swap> =>
      (
        await this.call('write', 'TestHelpers_forceStatus', () =>
          this.raw.POST('/v1/test_helpers/swaps/{id}/status', {
            params: { path: { id } },
            body: { status },
          }),
        )
      ).swap,
    addresses: async (currency: string): Promise<string[]> =>
      (
        await this.call('read', 'TestHelpers_addresses', () =>
          this.raw.GET('/v1/test_helpers/addresses', { params: { query: { currency } } }),
        )
      ).addresses,
  };
}

/** An async iterator over the event feed that keeps its cursor for the caller (`after`). */
export class EventIterator implements AsyncIterable<Event> {
  /** The id of the last event yielded (or the starting `after`). */
  after: string | undefined;

  constructor(
    private readonly client: SwapPartners,
    private readonly options: {
      after?: string;
      type?: ListEventsParams['type'];
      pageSize?: number;
      follow?: { intervalMs?: number; signal?: AbortSignal };
    },
  ) {
    this.after = options.after;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Event> {
    const { follow, type, pageSize = 100 } = this.options;
    for (;;) {
      const page = await this.client.events.list({ after: this.after, limit: pageSize, type });
      for (const event of page.events) {
        this.after = event.id;
        yield event;
      }
      if (page.hasMore) {
        continue;
      }
      if (!follow || follow.signal?.aborted) {
        return;
      }
      await waitOrAbort(follow.intervalMs ?? 2000, follow.signal);
      if (follow.signal?.aborted) {
        return;
      }
    }
  }
}

function waitOrAbort(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
