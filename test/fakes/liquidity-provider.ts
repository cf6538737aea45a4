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
  type TransactionQuery,
} from '#app/provider';
import type { SwapStatus } from '#app/domain';
import { providerReport, providerTransaction } from '../factories/provider.js';

/** What the next create does after (or instead of) creating the transaction. */
export type CreateOutcome = 'answer' | 'lose-answer' | 'time-out-before-creating' | ProviderError;

/** The provider's timeout of `method`, as the adapter reports it. */
export function timedOut(method: string): ProviderError {
  return unavailable(method, 'timeout after 1000 ms', 'unknown');
}

/**
 * A liquidity provider in memory. It keeps the transactions it created, so an answer lost on the
 * way back still left its transaction behind, as with the real one; it lists the transactions a
 * test gave it (`report`, `known`) before its own, newest first, and fails the lookups the test
 * says. Quotes, currencies and address checks are not faked: they reject.
 */
export class FakeLiquidityProvider implements LiquidityProvider {
  readonly created: ProviderTransaction[] = [];
  readonly creates: (CreateTransactionRequest | CreateFixedTransactionRequest)[] = [];
  readonly lookups: TransactionQuery[] = [];
  /** Transactions the test put there (other clients', or reports of its swaps), in order. */
  known: ProviderTransaction[] = [];
  nextCreate: CreateOutcome = 'answer';
  /** Called before each lookup with its index; an error it returns is the lookup's failure. */
  beforeLookup: (call: number) => Error | undefined = () => undefined;

  constructor(
    readonly id = 'fake',
    readonly name: ProviderName = 'changelly',
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
    return notFaked('getCurrencies');
  }

  getPairParams(): Promise<ProviderPairParams> {
    return notFaked('getPairParams');
  }

  getFloatQuote(): Promise<ProviderFloatQuote> {
    return notFaked('getFloatQuote');
  }

  getFixedQuote(): Promise<ProviderFixedQuote> {
    return notFaked('getFixedQuote');
  }

  validateAddress(): Promise<AddressValidation> {
    return notFaked('validateAddress');
  }
}

function notFaked(method: string): Promise<never> {
  return Promise.reject(new Error(`FakeLiquidityProvider.${method} is not used in this fake`));
}
