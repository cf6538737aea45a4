import {
  unavailable,
  ProviderError,
  type AddressValidation,
  type CreateFixedTransactionRequest,
  type CreateTransactionRequest,
  type LiquidityProvider,
  type ProviderCurrency,
  type ProviderFixedQuote,
  type ProviderFloatQuote,
  type ProviderPairParams,
  type ProviderName,
  type ProviderTransaction,
  type QuoteRequest,
  type TransactionQuery,
} from '#app/provider';
import { Decimal } from 'decimal.js';
import type { SwapStatus } from '#app/domain';
import {
  btcEthParams,
  providerCurrency,
  providerReport,
  providerTransaction,
} from '../factories/provider.js';

/** What the next create does after (or instead of) creating the transaction. */
export type CreateOutcome = 'answer' | 'lose-answer' | 'time-out-before-creating' | ProviderError;

/** What quotes answer: these amounts for 0.1 BTC, a failure, or no answer at all. */
export type QuoteOutcome = { amountTo: string; networkFee: string } | ProviderError | 'hang';

/** The provider's timeout of `method`, as the adapter reports it. */
export function timedOut(method: string): ProviderError {
  return unavailable(method, 'timeout after 1000 ms', 'unknown');
}

/**
 * A liquidity provider in memory. It keeps the transactions it created, so an answer lost on the
 * way back still left its transaction behind, as with the real one; it lists the transactions a
 * test gave it (`report`, `known`) before its own, newest first, and fails the lookups the test
 * says. It lists `listed` with `bounds` on every pair; quotes answer `quoteOutcome` (scaled to
 * the amount asked); address checks are not faked: they reject.
 */
export class FakeLiquidityProvider implements LiquidityProvider {
  readonly created: ProviderTransaction[] = [];
  readonly creates: (CreateTransactionRequest | CreateFixedTransactionRequest)[] = [];
  readonly lookups: TransactionQuery[] = [];
  readonly quotes: QuoteRequest[] = [];
  /** The currencies it lists, and the bounds it gives every pair of them. */
  listed: ProviderCurrency[] = [
    providerCurrency('btc', 'bitcoin', 8),
    providerCurrency('eth', 'ethereum', 18),
  ];
  bounds: ProviderPairParams = btcEthParams();
  /** What every quote answers until a test says else (per 0.1 of the amount sent). */
  quoteOutcome: QuoteOutcome = { amountTo: '1.5', networkFee: '0.001' };
  /** Transactions the test put there (other clients', or reports of its swaps), in order. */
  known: ProviderTransaction[] = [];
  nextCreate: CreateOutcome = 'answer';
  /** Called before each lookup with its index; an error it returns is the lookup's failure. */
  beforeLookup: (call: number) => Error | undefined = () => undefined;

  constructor(
    readonly id = 'fake',
    readonly name: ProviderName = 'changelly',
    readonly listsByStatus = true,
  ) {}

  /** From now on the provider reports transaction `id` in `status`. */
  report(id: string, status: SwapStatus): void {
    const report = providerReport(id, status);
    const index = this.known.findIndex((tx) => tx.id === id);
    if (index >= 0) {
      this.known[index] = report;
    } else {
      this.known.push(report);
    }
  }

  createTransaction(request: CreateTransactionRequest): Promise<ProviderTransaction> {
    this.creates.push(request);
    const outcome = this.nextCreate;
    this.nextCreate = 'answer';
    if (outcome instanceof ProviderError) {
      return Promise.reject(outcome);
    }
    if (outcome === 'time-out-before-creating') {
      return Promise.reject(timedOut('createTransaction'));
    }
    const tx = providerTransaction({
      id: `tx-${this.created.length + 1}`,
      from: request.from,
      to: request.to,
      amountExpectedFrom: request.amountFrom,
      payoutAddress: request.address,
      refundAddress: request.refundAddress ?? null,
      userMetadata: request.userMetadata ?? null,
    });
    this.created.push(tx);
    return outcome === 'lose-answer'
      ? Promise.reject(timedOut('createTransaction'))
      : Promise.resolve(tx);
  }

  createFixedTransaction(request: CreateFixedTransactionRequest): Promise<ProviderTransaction> {
    return this.createTransaction(request);
  }

  getTransactions(query: TransactionQuery): Promise<ProviderTransaction[]> {
    this.lookups.push(query);
    const failure = this.beforeLookup(this.lookups.length - 1);
    if (failure) {
      return Promise.reject(failure);
    }
    const all = [...this.known, ...[...this.created].reverse()];
    if ('ids' in query) {
      return Promise.resolve(all.filter((tx) => query.ids.includes(tx.id)));
    }
    const offset = query.offset ?? 0;
    const listing = all.filter(
      (tx) =>
        (query.payoutAddress === undefined || tx.payoutAddress === query.payoutAddress) &&
        (query.statuses === undefined || query.statuses.includes(tx.status)),
    );
    return Promise.resolve(listing.slice(offset, offset + (query.limit ?? 10)));
  }

  getCurrencies(): Promise<ProviderCurrency[]> {
    return Promise.resolve(this.listed);
  }

  getPairParams(from: string, to: string): Promise<ProviderPairParams> {
    return Promise.resolve({ ...this.bounds, from, to });
  }

  async getFloatQuote(request: QuoteRequest): Promise<ProviderFloatQuote> {
    const { amountTo, networkFee } = await this.quoted(request);
    return {
      ...request,
      amountTo,
      networkFee,
      rate: new Decimal(amountTo).div(request.amountFrom).toFixed(),
      fee: '0',
      min: '0.001',
      max: '20',
    };
  }

  async getFixedQuote(request: QuoteRequest): Promise<ProviderFixedQuote> {
    const { amountTo, networkFee } = await this.quoted(request);
    return {
      ...request,
      rateId: `${this.name}-rate-${this.quotes.length}`,
      amountTo,
      networkFee,
      rate: new Decimal(amountTo).div(request.amountFrom).toFixed(),
      min: '0.002',
      max: '10',
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    };
  }

  private quoted(request: QuoteRequest): Promise<{ amountTo: string; networkFee: string }> {
    this.quotes.push(request);
    const outcome = this.quoteOutcome;
    if (outcome === 'hang') {
      return new Promise(() => undefined);
    }
    if (outcome instanceof ProviderError) {
      return Promise.reject(outcome);
    }
    const scale = new Decimal(request.amountFrom).div('0.1');
    return Promise.resolve({
      amountTo: new Decimal(outcome.amountTo).mul(scale).toFixed(),
      networkFee: outcome.networkFee,
    });
  }

  validateAddress(): Promise<AddressValidation> {
    return notFaked('validateAddress');
  }
}

function notFaked(method: string): Promise<never> {
  return Promise.reject(new Error(`FakeLiquidityProvider.${method} is not used in this fake`));
}
