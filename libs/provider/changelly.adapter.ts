import { createHash, randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import { LRUCache } from 'lru-cache';
import type { ProviderConfig } from '#app/config';
import { isProviderStatus, toSwapStatus, type SwapStatus } from '#app/domain';
import { MemoryStore, type KeyValueStore } from '#app/redis';
import type {
  AddressValidation,
  CreateFixedTransactionRequest,
  CreateTransactionRequest,
  LiquidityProvider,
  ProviderCurrency,
  ProviderFixedQuote,
  ProviderFloatQuote,
  ProviderPairParams,
  ProviderTransaction,
  QuoteRequest,
  TransactionQuery,
  UpstreamGate,
} from './liquidity-provider.js';
import {
  badResponse,
  emptyQuote,
  mapRpcError,
  notConfigured,
  ProviderError,
  rateLimited,
  unavailable,
} from './provider.error.js';
import { providerApiKey, signProviderBody } from './request-signer.js';
import type { RpcMethod } from './changelly.wire.js';
import { WireReader } from './wire.reader.js';

/** One upstream call as it ended, for metrics. */
export interface UpstreamCallEvent {
  method: RpcMethod;
  /** 'ok' or the error code. */
  outcome: string;
  latencyMs: number;
}

export interface ChangellyAdapterOptions {
  /** Shared cache (Redis when there is one); a process-local store otherwise. */
  cache?: KeyValueStore;
  currenciesTtlMs?: number;
  pairParamsTtlMs?: number;
  onCall?: (event: UpstreamCallEvent) => void;
  /** Waits for the shared upstream budget before every call that reaches the provider. */
  gate?: UpstreamGate;
}

export const MAX_IDS_PER_TRANSACTIONS_CALL = 10;
const DEFAULT_CURRENCIES_TTL_MS = 5 * 60_000;
const DEFAULT_PAIR_PARAMS_TTL_MS = 60_000;
const LOCAL_CACHE_TTL_MS = 1000;
/** The currency list plus the pair limits of every pair in use, with room to spare. */
const LOCAL_CACHE_MAX_ENTRIES = 10_000;

/** The provider's status word as a swap status, normalized at the boundary (`new` is `waiting`). */
function toStatus(value: string): SwapStatus {
  if (!isProviderStatus(value)) {
    throw new TypeError(`unknown status ${value}`);
  }
  return toSwapStatus(value);
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) {
    out.push(items.slice(i, i + size));
  }
  return out;
}

/** A quote method answers an array; an empty one means no quote (DECISIONS §4). */
function firstQuote(method: RpcMethod, result: unknown): WireReader {
  const first = WireReader.array(result, 'result')[0];
  if (first === undefined) {
    throw emptyQuote(method);
  }
  return new WireReader(first, 'result[0]');
}

function errorDetail(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.name}: ${error.message}${cause}`;
  }
  return String(error);
}

/**
 * The adapter for the Changelly-API-v2-compatible JSON-RPC provider (DECISIONS §4): signed
 * compact bodies, a timeout on every call, every failure a typed `ProviderError`, times as ISO.
 */
export class ChangellyAdapter implements LiquidityProvider {
  private readonly logger = new Logger(ChangellyAdapter.name);
  private readonly apiKey: string;
  private readonly cache: KeyValueStore;
  private readonly cachePrefix: string;
  private readonly inflight = new Map<string, Promise<unknown>>();
  /** A second in front of the shared cache: hot reads skip the Redis round trip and the parse. */
  private readonly local = new LRUCache<string, { value: unknown }>({
    max: LOCAL_CACHE_MAX_ENTRIES,
    ttl: LOCAL_CACHE_TTL_MS,
  });

  constructor(
    private readonly config: ProviderConfig,
    private readonly options: ChangellyAdapterOptions = {},
  ) {
    this.apiKey = providerApiKey(config.privateKey);
    this.cache = options.cache ?? new MemoryStore();
    // Keyed by endpoint so two providers (or two test sandboxes) never read each other's entries.
    const endpoint = createHash('sha256').update(config.url).digest('hex').slice(0, 12);
    this.cachePrefix = `provider:${endpoint}:`;
  }

  async getCurrencies(): Promise<ProviderCurrency[]> {
    return this.cached(
      'currencies',
      this.options.currenciesTtlMs ?? DEFAULT_CURRENCIES_TTL_MS,
      () =>
        this.call('getCurrenciesFull', {}, (result) =>
          WireReader.array(result, 'result').map((item, i) => {
            const r = new WireReader(item, `result[${i}]`);
            return {
              ticker: r.string('ticker'),
              fullName: r.string('fullName'),
              enabled: r.boolean('enabled'),
              enabledFrom: r.boolean('enabledFrom'),
              enabledTo: r.boolean('enabledTo'),
              fixRateEnabled: r.boolean('fixRateEnabled'),
              payinConfirmations: r.integer('payinConfirmations'),
              extraIdName: r.optionalString('extraIdName'),
              image: r.optionalString('image'),
              blockchain: r.string('blockchain'),
              blockchainPrecision: r.integer('blockchainPrecision'),
            };
          }),
        ),
    );
  }

  async getPairParams(from: string, to: string): Promise<ProviderPairParams> {
    const key = `pair:${from}:${to}`;
    return this.cached(key, this.options.pairParamsTtlMs ?? DEFAULT_PAIR_PARAMS_TTL_MS, () =>
      this.call('getPairsParams', [{ from, to }], (result) => {
        const items = WireReader.array(result, 'result').map(
          (item, i) => new WireReader(item, `result[${i}]`),
        );
        const match = items.find((r) => r.string('from') === from && r.string('to') === to);
        if (!match) {
          throw new TypeError(`no params for ${from}/${to}`);
        }
        return {
          from,
          to,
          minAmountFloat: match.decimal('minAmountFloat'),
          maxAmountFloat: match.decimal('maxAmountFloat'),
          minAmountFixed: match.decimal('minAmountFixed'),
          maxAmountFixed: match.decimal('maxAmountFixed'),
        };
      }),
    );
  }

  async getFloatQuote(request: QuoteRequest): Promise<ProviderFloatQuote> {
    const method = 'getExchangeAmount';
    return this.call(
      method,
      [{ from: request.from, to: request.to, amountFrom: request.amountFrom }],
      (result) => {
        const r = firstQuote(method, result);
        return {
          from: r.string('from'),
          to: r.string('to'),
          amountFrom: r.decimal('amountFrom'),
          amountTo: r.decimal('amountTo'),
          networkFee: r.decimal('networkFee'),
          rate: r.decimal('rate'),
          fee: r.decimal('fee'),
          min: r.decimal('min'),
          max: r.decimal('max'),
        };
      },
    );
  }

  async getFixedQuote(request: QuoteRequest): Promise<ProviderFixedQuote> {
    const method = 'getFixRateForAmount';
    return this.call(
      method,
      [{ from: request.from, to: request.to, amountFrom: request.amountFrom }],
      (result) => {
        const r = firstQuote(method, result);
        return {
          rateId: r.string('id'),
          from: r.string('from'),
          to: r.string('to'),
          amountFrom: r.decimal('amountFrom'),
          amountTo: r.decimal('amountTo'),
          networkFee: r.decimal('networkFee'),
          rate: r.decimal('result'),
          min: r.decimal('min'),
          max: r.decimal('max'),
          expiresAt: r.timestamp('expiredAt'),
        };
      },
    );
  }

  async createTransaction(request: CreateTransactionRequest): Promise<ProviderTransaction> {
    const params: Record<string, string> = {
      from: request.from,
      to: request.to,
      amountFrom: request.amountFrom,
      address: request.address,
    };
    if (request.refundAddress !== undefined) {
      params.refundAddress = request.refundAddress;
    }
    return this.call('createTransaction', params, (result) => this.readCreated(result));
  }

  async createFixedTransaction(
    request: CreateFixedTransactionRequest,
  ): Promise<ProviderTransaction> {
    const params = {
      from: request.from,
      to: request.to,
      rateId: request.rateId,
      amountFrom: request.amountFrom,
      address: request.address,
      refundAddress: request.refundAddress,
    };
    return this.call('createFixTransaction', params, (result) => this.readCreated(result));
  }

  async getTransactions(query: TransactionQuery): Promise<ProviderTransaction[]> {
    if ('ids' in query) {
      const out: ProviderTransaction[] = [];
      for (const ids of chunk(query.ids, MAX_IDS_PER_TRANSACTIONS_CALL)) {
        out.push(...(await this.fetchTransactions({ id: ids, limit: ids.length, offset: 0 })));
      }
      return out;
    }
    return this.fetchTransactions({
      payoutAddress: query.payoutAddress,
      limit: query.limit ?? 10,
      offset: query.offset ?? 0,
    });
  }

  async getStatus(id: string): Promise<SwapStatus> {
    return this.call('getStatus', { id }, (result) => {
      if (typeof result !== 'string') {
        throw new TypeError('result is not a status string');
      }
      return toStatus(result);
    });
  }

  async validateAddress(currency: string, address: string): Promise<AddressValidation> {
    return this.call('validateAddress', { currency, address }, (result) => {
      const r = new WireReader(result, 'result');
      const message = r.optionalString('message');
      return message === null
        ? { result: r.boolean('result') }
        : { result: r.boolean('result'), message };
    });
  }

  private async fetchTransactions(params: object): Promise<ProviderTransaction[]> {
    return this.call('getTransactions', params, (result) =>
      WireReader.array(result, 'result').map((item, i) => {
        const r = new WireReader(item, `result[${i}]`);
        const moneyReceivedAt = r.optionalTimestamp('moneyReceived');
        const moneySentAt = r.optionalTimestamp('moneySent');
        return {
          id: r.string('id'),
          status: toStatus(r.string('status')),
          from: r.string('currencyFrom'),
          to: r.string('currencyTo'),
          payinAddress: r.string('payinAddress'),
          payoutAddress: r.string('payoutAddress'),
          refundAddress: r.optionalString('refundAddress'),
          amountExpectedFrom: r.decimal('amountExpectedFrom'),
          amountExpectedTo: r.decimal('amountExpectedTo'),
          networkFee: r.optionalDecimal('networkFee'),
          rate: r.optionalDecimal('rate'),
          payTill: r.optionalTimestamp('payTill'),
          createdAt: r.timestamp('createdAt'),
          payinHash: r.optionalString('payinHash'),
          payoutHash: r.optionalString('payoutHash'),
          amountActualFrom:
            moneyReceivedAt === null ? null : nonZero(r.optionalDecimal('amountFrom')),
          amountActualTo: moneySentAt === null ? null : nonZero(r.optionalDecimal('amountTo')),
          actualNetworkFee: moneySentAt === null ? null : r.optionalDecimal('networkFee'),
          moneyReceivedAt,
          moneySentAt,
        };
      }),
    );
  }

  private readCreated(result: unknown): ProviderTransaction {
    const r = new WireReader(result, 'result');
    return {
      id: r.string('id'),
      status: toStatus(r.string('status')),
      from: r.string('currencyFrom'),
      to: r.string('currencyTo'),
      payinAddress: r.string('payinAddress'),
      payoutAddress: r.string('payoutAddress'),
      refundAddress: r.optionalString('refundAddress'),
      amountExpectedFrom: r.decimal('amountExpectedFrom'),
      amountExpectedTo: r.decimal('amountExpectedTo'),
      networkFee: r.optionalDecimal('networkFee'),
      rate: r.optionalDecimal('rate'),
      payTill: r.optionalTimestamp('payTill'),
      createdAt: r.timestamp('createdAt'),
      payinHash: null,
      payoutHash: null,
      amountActualFrom: null,
      amountActualTo: null,
      actualNetworkFee: null,
      moneyReceivedAt: null,
      moneySentAt: null,
    };
  }

  /**
   * Read-through cache shared through the store; concurrent misses in this process share one
   * upstream call. A store failure costs an upstream call, never the answer.
   */
  private async cached<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    const fullKey = this.cachePrefix + key;
    const local = this.local.get(fullKey);
    if (local) {
      return local.value as T;
    }
    try {
      const hit = await this.cache.get(fullKey);
      if (hit !== null) {
        return this.keepLocally(fullKey, JSON.parse(hit) as T, ttlMs);
      }
    } catch (error: unknown) {
      this.logger.warn({ key, err: errorDetail(error) }, 'provider cache read failed');
    }
    const pending = this.inflight.get(fullKey) as Promise<T> | undefined;
    if (pending) {
      return pending;
    }
    const loading = (async () => {
      const value = this.keepLocally(fullKey, await load(), ttlMs);
      try {
        await this.cache.set(fullKey, JSON.stringify(value), ttlMs);
      } catch (error: unknown) {
        this.logger.warn({ key, err: errorDetail(error) }, 'provider cache write failed');
      }
      return value;
    })();
    this.inflight.set(fullKey, loading);
    try {
      return await loading;
    } finally {
      this.inflight.delete(fullKey);
    }
  }

  private keepLocally<T>(key: string, value: T, ttlMs: number): T {
    this.local.set(key, { value }, { ttl: Math.min(ttlMs, LOCAL_CACHE_TTL_MS) });
    return value;
  }

  /** One signed JSON-RPC call with a timeout; logs method, latency and outcome (never keys). */
  private async call<T>(
    method: RpcMethod,
    params: unknown,
    parse: (result: unknown) => T,
  ): Promise<T> {
    await this.options.gate?.acquire();
    const started = performance.now();
    try {
      const result = await this.send(method, params);
      let value: T;
      try {
        value = parse(result);
      } catch (error: unknown) {
        throw error instanceof ProviderError
          ? error
          : badResponse(method, errorDetail(error), error);
      }
      this.record(method, 'ok', started);
      return value;
    } catch (error: unknown) {
      const typed =
        error instanceof ProviderError ? error : unavailable(method, errorDetail(error), error);
      this.record(method, typed.code, started, typed);
      throw typed;
    }
  }

  private async send(method: RpcMethod, params: unknown): Promise<unknown> {
    const body = JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params });
    let status: number;
    let text: string;
    try {
      const response = await fetch(this.config.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Api-Key': this.apiKey,
          'X-Api-Signature': signProviderBody(this.config.privateKey, body),
        },
        body,
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
      status = response.status;
      text = await response.text();
    } catch (error: unknown) {
      const timedOut =
        error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw unavailable(
        method,
        timedOut ? `timeout after ${this.config.timeoutMs} ms` : errorDetail(error),
        error,
      );
    }
    if (status === 429) {
      throw rateLimited(method, null, `HTTP 429`);
    }
    if (status >= 500) {
      throw unavailable(method, `HTTP ${status}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error: unknown) {
      throw badResponse(method, `HTTP ${status}, body is not JSON`, error);
    }
    const envelope =
      parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
    const rpcError = envelope?.error as { code?: unknown; message?: unknown } | undefined;
    if (rpcError && typeof rpcError === 'object') {
      const code = typeof rpcError.code === 'number' ? rpcError.code : -32603;
      const message = typeof rpcError.message === 'string' ? rpcError.message : '';
      throw mapRpcError(method, code, message);
    }
    if (status === 401 || status === 403) {
      throw notConfigured(method, null, `HTTP ${status}`);
    }
    if (status !== 200 || envelope === null || !('result' in envelope)) {
      throw badResponse(method, `HTTP ${status}, no JSON-RPC result`);
    }
    return envelope.result;
  }

  private record(method: RpcMethod, outcome: string, started: number, error?: ProviderError): void {
    const latencyMs = Math.round(performance.now() - started);
    const fields = {
      method,
      latencyMs,
      outcome,
      upstreamCode: error?.upstreamCode ?? undefined,
      detail: error?.upstreamMessage ?? undefined,
    };
    if (error) {
      this.logger.warn(fields, 'upstream call failed');
    } else {
      this.logger.log(fields, 'upstream call');
    }
    this.options.onCall?.({ method, outcome, latencyMs });
  }
}

function nonZero(value: string | null): string | null {
  return value === null || new Decimal(value).isZero() ? null : value;
}
