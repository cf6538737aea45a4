import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { ProviderConfig } from '#app/config';
import { MemoryStore, TieredCache, type KeyValueStore } from '#app/redis';
import type { UpstreamGate } from '#app/rate-limit';
import {
  readAddressValidation,
  readCreatedTransaction,
  readCurrencies,
  readFixedQuote,
  readFloatQuote,
  readPairParams,
  readTransactions,
} from './changelly.mapper.js';
import { JsonRpcClient } from './json-rpc.client.js';
import type { UpstreamCallEvent } from './upstream-call.runner.js';
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
/** A second in front of the shared cache: hot reads skip the Redis round trip and the parse. */
const LOCAL_CACHE_TTL_MS = 1000;

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) {
    out.push(items.slice(i, i + size));
  }
  return out;
}

/**
 * The adapter for the Changelly-API-v2-compatible JSON-RPC provider (docs/decisions.md, "The
 * provider's wire protocol"): builds each method's params, reads its result through the mapper, and
 * caches the catalogue reads.
 */
export class ChangellyAdapter implements LiquidityProvider {
  private readonly rpc: JsonRpcClient;
  private readonly cache: TieredCache;
  readonly name = 'changelly';
  /** `getTransactions` takes a `status` filter (docs/decisions.md, "The provider's wire protocol"). */
  readonly listsByStatus = true;
  readonly id: string;

  constructor(
    config: ProviderConfig,
    private readonly options: ChangellyAdapterOptions = {},
  ) {
    this.rpc = new JsonRpcClient(config, {
      gate: options.gate,
      onCall: options.onCall,
      logger: new Logger(ChangellyAdapter.name),
    });
    // Keyed by endpoint so two providers (or two test sandboxes) never read each other's entries.
    this.id = `provider:${createHash('sha256').update(config.url).digest('hex').slice(0, 12)}`;
    this.cache = new TieredCache(options.cache ?? new MemoryStore(), {
      namespace: this.id,
      localTtlMs: LOCAL_CACHE_TTL_MS,
    });
  }

  async getCurrencies(): Promise<ProviderCurrency[]> {
    return this.cache.get(
      'currencies',
      this.options.currenciesTtlMs ?? DEFAULT_CURRENCIES_TTL_MS,
      () => this.rpc.call('getCurrenciesFull', {}, readCurrencies),
    );
  }

  async getPairParams(from: string, to: string): Promise<ProviderPairParams> {
    return this.cache.get(
      `pair:${from}:${to}`,
      this.options.pairParamsTtlMs ?? DEFAULT_PAIR_PARAMS_TTL_MS,
      () =>
        this.rpc.call('getPairsParams', [{ from, to }], (result) =>
          readPairParams(result, from, to),
        ),
    );
  }

  async getFloatQuote(request: QuoteRequest): Promise<ProviderFloatQuote> {
    return this.rpc.call('getExchangeAmount', [quoteParams(request)], readFloatQuote);
  }

  async getFixedQuote(request: QuoteRequest): Promise<ProviderFixedQuote> {
    return this.rpc.call('getFixRateForAmount', [quoteParams(request)], readFixedQuote);
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
    if (request.userMetadata !== undefined) {
      params.userMetadata = request.userMetadata;
    }
    return this.rpc.call('createTransaction', params, readCreatedTransaction);
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
      ...(request.userMetadata !== undefined ? { userMetadata: request.userMetadata } : {}),
    };
    return this.rpc.call('createFixTransaction', params, readCreatedTransaction);
  }

  async getTransactions(query: TransactionQuery): Promise<ProviderTransaction[]> {
    if ('ids' in query) {
      const out: ProviderTransaction[] = [];
      for (const ids of chunk(query.ids, MAX_IDS_PER_TRANSACTIONS_CALL)) {
        const params = { id: ids, limit: ids.length, offset: 0 };
        out.push(...(await this.rpc.call('getTransactions', params, readTransactions)));
      }
      return out;
    }
    const params = {
      ...(query.payoutAddress !== undefined ? { payoutAddress: query.payoutAddress } : {}),
      ...(query.statuses !== undefined ? { status: query.statuses } : {}),
      // Upstream filters `createdAt >= since` in Unix microseconds.
      ...(query.since !== undefined ? { since: Date.parse(query.since) * 1000 } : {}),
      limit: query.limit ?? 10,
      offset: query.offset ?? 0,
    };
    return this.rpc.call('getTransactions', params, readTransactions);
  }

  async validateAddress(currency: string, address: string): Promise<AddressValidation> {
    return this.rpc.call('validateAddress', { currency, address }, readAddressValidation);
  }
}

function quoteParams(request: QuoteRequest): QuoteRequest {
  return { from: request.from, to: request.to, amountFrom: request.amountFrom };
}
