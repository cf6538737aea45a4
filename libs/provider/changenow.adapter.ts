import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import type { ChangeNowConfig } from '#app/config';
import { ErrorCode } from '#app/errors';
import { MemoryStore, TieredCache, type KeyValueStore } from '#app/redis';
import type { UpstreamGate } from '#app/rate-limit';
import { changeNowSymbol, type ChangeNowSymbol } from './changenow-currencies.js';
import { ChangeNowClient } from './changenow.client.js';
import {
  readAddressValidation,
  readCreatedTransaction,
  readCurrencies,
  readExchange,
  readExchanges,
  readFixedQuote,
  readFloatQuote,
  readRange,
  type ChangeNowRange,
  type QuoteBounds,
} from './changenow.mapper.js';
import {
  CHANGENOW_ERRORS,
  type ChangeNowCreateBody,
  type ChangeNowFlow,
  type ChangeNowOperation,
} from './changenow.wire.js';
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
} from './liquidity-provider.js';
import { outOfBounds, ProviderError } from './provider.error.js';
import type { UpstreamCallEvent } from './upstream-call.runner.js';

export interface ChangeNowAdapterOptions {
  /** Shared cache (Redis when there is one); a process-local store otherwise. */
  cache?: KeyValueStore;
  currenciesTtlMs?: number;
  pairParamsTtlMs?: number;
  onCall?: (event: UpstreamCallEvent) => void;
  /** Waits for the shared upstream budget before every call that reaches the provider. */
  gate?: UpstreamGate;
}

/**
 * What a pair with no maximum (ChangeNOW's null) shows as its maximum: the port and the contract
 * carry a decimal, and no swap comes near this one (docs/decisions.md, "The ChangeNOW wire
 * protocol").
 */
export const NO_MAXIMUM = '1000000000000000';

/** The most `GET /v2/exchanges` lists per page. */
export const CHANGENOW_PAGE = 100;
/** By-id reads in flight at once when asked for many ids. */
export const CHANGENOW_BY_ID_CONCURRENCY = 5;
const DEFAULT_CURRENCIES_TTL_MS = 5 * 60_000;
const DEFAULT_PAIR_PARAMS_TTL_MS = 60_000;
const LOCAL_CACHE_TTL_MS = 1000;

/** `items` through `work`, at most `concurrency` at once, answers in the items' order. */
async function mapBounded<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      out[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return out;
}

function isRefusal(error: unknown, word: string): error is ProviderError {
  return error instanceof ProviderError && error.upstreamError === word;
}

/**
 * The adapter for the ChangeNOW-API-v2-style REST provider (docs/decisions.md, "The ChangeNOW
 * wire protocol"): canonical tickers to ChangeNOW's ticker and network and back, quotes and
 * creations with their flow, the catalogue reads cached, the transaction listing filtered here so
 * the port's paging holds exactly.
 */
export class ChangeNowAdapter implements LiquidityProvider {
  readonly name = 'changenow';
  /**
   * Its list takes no status filter: the poller lists every transaction since its oldest active
   * swap instead of asking for one this adapter would have to page through.
   */
  readonly listsByStatus = false;
  readonly id: string;
  private readonly client: ChangeNowClient;
  private readonly cache: TieredCache;
  private readonly logger = new Logger(ChangeNowAdapter.name);

  constructor(
    config: ChangeNowConfig,
    private readonly options: ChangeNowAdapterOptions = {},
  ) {
    this.client = new ChangeNowClient(config, {
      gate: options.gate,
      onCall: options.onCall,
      logger: new Logger(ChangeNowAdapter.name),
    });
    this.id = `changenow:${createHash('sha256').update(config.url).digest('hex').slice(0, 12)}`;
    this.cache = new TieredCache(options.cache ?? new MemoryStore(), {
      namespace: this.id,
      localTtlMs: LOCAL_CACHE_TTL_MS,
    });
  }

  async getCurrencies(): Promise<ProviderCurrency[]> {
    return this.cache.get(
      'currencies',
      this.options.currenciesTtlMs ?? DEFAULT_CURRENCIES_TTL_MS,
      async () => {
        const catalogue = await this.client.get(
          'currencies',
          'exchange/currencies',
          { active: 'true' },
          readCurrencies,
        );
        if (catalogue.unknown.length > 0) {
          this.logger.warn(
            { unknown: catalogue.unknown },
            'currencies left out: not in the ChangeNOW currency table',
          );
        }
        return catalogue.currencies;
      },
    );
  }

  /**
   * Both flows' ranges. A pair whose fixed-rate range is refused as inactive has no fixed rate:
   * its fixed bounds are "0", as Changelly reports such a pair.
   */
  async getPairParams(from: string, to: string): Promise<ProviderPairParams> {
    return this.cache.get(
      `pair:${from}:${to}`,
      this.options.pairParamsTtlMs ?? DEFAULT_PAIR_PARAMS_TTL_MS,
      async () => {
        const [float, fixed] = await Promise.all([
          this.range(from, to, 'standard'),
          this.range(from, to, 'fixed-rate').catch((error: unknown) => {
            if (isRefusal(error, CHANGENOW_ERRORS.pairIsInactive)) {
              return { min: '0', max: '0' };
            }
            throw error;
          }),
        ]);
        return {
          from,
          to,
          minAmountFloat: float.min,
          maxAmountFloat: float.max ?? NO_MAXIMUM,
          minAmountFixed: fixed.min,
          maxAmountFixed: fixed.max ?? NO_MAXIMUM,
        };
      },
    );
  }

  async getFloatQuote(request: QuoteRequest): Promise<ProviderFloatQuote> {
    return this.quote(request, 'standard', {}, readFloatQuote);
  }

  /** With `useRateId`, the estimate locks a rate until its `validUntil`. */
  async getFixedQuote(request: QuoteRequest): Promise<ProviderFixedQuote> {
    return this.quote(request, 'fixed-rate', { useRateId: 'true' }, readFixedQuote);
  }

  async createTransaction(request: CreateTransactionRequest): Promise<ProviderTransaction> {
    return this.create(request, { flow: 'standard' });
  }

  async createFixedTransaction(
    request: CreateFixedTransactionRequest,
  ): Promise<ProviderTransaction> {
    return this.create(request, { flow: 'fixed-rate', rateId: request.rateId });
  }

  /**
   * By ids: one by-id read each, a few at a time; an id the provider does not know is absent from
   * the answer. A listing: ChangeNOW's own list from `since` up to now, paged 100 at a time and
   * filtered here, so the answer is the page at `offset` of the filtered list, newest first.
   */
  async getTransactions(query: TransactionQuery): Promise<ProviderTransaction[]> {
    if ('ids' in query) {
      const found = await mapBounded(query.ids, CHANGENOW_BY_ID_CONCURRENCY, (id) =>
        this.client
          .get('by-id', 'exchange/by-id', { id }, (r) => readExchange(r))
          .catch((error: unknown) => {
            if (isRefusal(error, CHANGENOW_ERRORS.notFound)) {
              return null;
            }
            throw error;
          }),
      );
      return found.filter((tx): tx is ProviderTransaction => tx !== null);
    }
    const limit = query.limit ?? 10;
    const offset = query.offset ?? 0;
    const window = {
      ...(query.since !== undefined ? { dateFrom: new Date(query.since).toISOString() } : {}),
      // Fixed at the start, so later transactions do not shift the pages under the walk.
      dateTo: new Date().toISOString(),
    };
    if (query.payoutAddress === undefined && query.statuses === undefined) {
      // Nothing to filter here: the page asked for is the provider's own page.
      return this.client.get(
        'exchanges',
        'exchanges',
        { ...window, limit: String(limit), offset: String(offset) },
        readExchanges,
      );
    }
    const matches: ProviderTransaction[] = [];
    for (let page = 0; ; page += CHANGENOW_PAGE) {
      const exchanges = await this.client.get(
        'exchanges',
        'exchanges',
        { ...window, limit: String(CHANGENOW_PAGE), offset: String(page) },
        readExchanges,
      );
      matches.push(
        ...exchanges.filter(
          (tx) =>
            (query.payoutAddress === undefined || tx.payoutAddress === query.payoutAddress) &&
            (query.statuses === undefined || query.statuses.includes(tx.status)),
        ),
      );
      if (matches.length >= offset + limit || exchanges.length < CHANGENOW_PAGE) {
        return matches.slice(offset, offset + limit);
      }
    }
  }

  /** Addresses belong to a network: ChangeNOW is asked with the currency's network. */
  async validateAddress(currency: string, address: string): Promise<AddressValidation> {
    const { network } = this.symbol(currency, 'validate-address');
    return this.client.get(
      'validate-address',
      'validate/address',
      { currency: network, address },
      readAddressValidation,
    );
  }

  private range(from: string, to: string, flow: ChangeNowFlow): Promise<ChangeNowRange> {
    return this.client.get(
      'range',
      'exchange/range',
      this.pairQuery(from, to, flow, 'range'),
      readRange,
    );
  }

  /** An estimate in `flow`, its min and max from the pair's (cached) range of that flow. */
  private async quote<T>(
    request: QuoteRequest,
    flow: ChangeNowFlow,
    extra: Record<string, string>,
    read: (result: unknown, request: QuoteRequest, range: QuoteBounds) => T,
  ): Promise<T> {
    const range = flowRange(await this.getPairParams(request.from, request.to), flow);
    const query = {
      ...this.pairQuery(request.from, request.to, flow, 'estimated-amount'),
      fromAmount: request.amountFrom,
      type: 'direct',
      ...extra,
    };
    return this.client
      .get('estimated-amount', 'exchange/estimated-amount', query, (r) => read(r, request, range))
      .catch((error: unknown) => {
        throw withBound(error, request.amountFrom, range);
      });
  }

  private async create(
    request: CreateTransactionRequest,
    fixed: { flow: 'standard' } | { flow: 'fixed-rate'; rateId: string },
  ): Promise<ProviderTransaction> {
    const pair = this.pairQuery(request.from, request.to, fixed.flow, 'exchange');
    const body: ChangeNowCreateBody = {
      fromCurrency: pair.fromCurrency,
      fromNetwork: pair.fromNetwork,
      toCurrency: pair.toCurrency,
      toNetwork: pair.toNetwork,
      fromAmount: request.amountFrom,
      address: request.address,
      flow: fixed.flow,
      type: 'direct',
      ...(fixed.flow === 'fixed-rate' ? { rateId: fixed.rateId } : {}),
      ...(request.refundAddress !== undefined ? { refundAddress: request.refundAddress } : {}),
      ...(request.userMetadata !== undefined
        ? { payload: { userMetadata: request.userMetadata } }
        : {}),
    };
    try {
      return await this.client.post('exchange', 'exchange', body, readCreatedTransaction);
    } catch (error: unknown) {
      if (!isRefusal(error, CHANGENOW_ERRORS.outOfRange)) {
        throw error;
      }
      const params = await this.getPairParams(request.from, request.to).catch(() => null);
      if (params === null) {
        throw error;
      }
      throw withBound(error, request.amountFrom, flowRange(params, fixed.flow));
    }
  }

  private pairQuery(
    from: string,
    to: string,
    flow: ChangeNowFlow,
    method: ChangeNowOperation,
  ): {
    fromCurrency: string;
    fromNetwork: string;
    toCurrency: string;
    toNetwork: string;
    flow: ChangeNowFlow;
  } {
    const source = this.symbol(from, method);
    const target = this.symbol(to, method);
    return {
      fromCurrency: source.ticker,
      fromNetwork: source.network,
      toCurrency: target.ticker,
      toNetwork: target.network,
      flow,
    };
  }

  /** ChangeNOW's ticker and network; a currency it has none for is a pair it cannot serve. */
  private symbol(canonical: string, method: ChangeNowOperation): ChangeNowSymbol {
    const symbol = changeNowSymbol(canonical);
    if (!symbol) {
      throw new ProviderError(ErrorCode.PairUnsupported, 'This currency pair is not supported.', {
        method,
        delivery: 'not_sent',
        param: 'pair',
      });
    }
    return symbol;
  }
}

/** One flow's bounds out of the pair's params. */
function flowRange(params: ProviderPairParams, flow: ChangeNowFlow): QuoteBounds {
  return flow === 'standard'
    ? { min: params.minAmountFloat, max: params.maxAmountFloat }
    : { min: params.minAmountFixed, max: params.maxAmountFixed };
}

/**
 * ChangeNOW's `out_of_range` names no bound: the pair's range (as cached) tells which side the
 * amount broke and the bound it broke. Any other error, or an amount the range admits, stays as
 * it is.
 */
function withBound(error: unknown, amountFrom: string, range: QuoteBounds): unknown {
  if (!isRefusal(error, CHANGENOW_ERRORS.outOfRange)) {
    return error;
  }
  const details = {
    method: error.method,
    delivery: error.delivery,
    upstreamError: error.upstreamError,
    upstreamMessage: error.upstreamMessage,
  };
  const amount = new Decimal(amountFrom);
  if (amount.lt(range.min)) {
    return outOfBounds('min', range.min, details);
  }
  return amount.gt(range.max) ? outOfBounds('max', range.max, details) : error;
}
