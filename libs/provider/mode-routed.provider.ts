import type { CredentialMode } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { requestContext } from '#app/logging';
import type {
  AddressValidation,
  CreateFixedTransactionRequest,
  CreateTransactionRequest,
  LiquidityProvider,
  ProviderCurrency,
  ProviderName,
  ProviderFixedQuote,
  ProviderFloatQuote,
  ProviderPairParams,
  ProviderTransaction,
  QuoteRequest,
  TransactionQuery,
} from './liquidity-provider.js';

/** The provider of each mode: live always, test only where `TEST_PROVIDER_URL` is set. */
export class LiquidityProviders {
  constructor(
    readonly live: LiquidityProvider,
    readonly test: LiquidityProvider | null,
  ) {}

  /** The provider of `mode`; a test call without a test provider answers 503. */
  forMode(mode: CredentialMode): LiquidityProvider {
    if (mode === 'live') {
      return this.live;
    }
    if (!this.test) {
      throw new AppError(
        ErrorCode.UpstreamNotConfigured,
        'Test mode is not available on this server: it has no test provider (TEST_PROVIDER_URL).',
      );
    }
    return this.test;
  }
}

export const LIQUIDITY_PROVIDERS = Symbol('LIQUIDITY_PROVIDERS');

/** A provider call made where no mode was set: a wiring fault, refused before any call leaves. */
export class ModeNotSetError extends Error {
  constructor() {
    super(
      'No mode (live or test) is set for this provider call: the entry point that serves it must ' +
        "set the request context's livemode (or use LIQUIDITY_PROVIDERS.forMode).",
    );
    this.name = ModeNotSetError.name;
  }
}

/**
 * Runs `work` with `livemode` as the mode of the provider calls it makes, for an entry point that
 * has no credential to take the mode from (the anonymous public quote states live).
 */
export function inMode<T>(livemode: boolean, work: () => T): T {
  const store = requestContext.getStore();
  return requestContext.run({ requestId: store?.requestId ?? 'none', ...store, livemode }, work);
}

/**
 * `LIQUIDITY_PROVIDER` as the api and its libraries see it: each call goes to the provider of
 * the mode its entry point set in the request context (the partner credential's mode, or live for
 * the anonymous public quote), so the services that quote, create and read never carry the mode
 * themselves. Where no mode is set it refuses the call and reaches neither provider: a new entry
 * point that forgets the mode fails loudly instead of sending test traffic to the live provider.
 * Work outside a request (the poller) picks its provider with `LiquidityProviders.forMode`.
 */
export class ModeRoutedProvider implements LiquidityProvider {
  constructor(private readonly providers: LiquidityProviders) {}

  private get current(): LiquidityProvider {
    const livemode = requestContext.getStore()?.livemode;
    if (livemode === undefined) {
      throw new ModeNotSetError();
    }
    return this.providers.forMode(livemode ? 'live' : 'test');
  }

  get name(): ProviderName {
    return this.current.name;
  }

  get id(): string {
    return this.current.id;
  }

  async getCurrencies(): Promise<ProviderCurrency[]> {
    return this.current.getCurrencies();
  }

  async getPairParams(from: string, to: string): Promise<ProviderPairParams> {
    return this.current.getPairParams(from, to);
  }

  async getFloatQuote(request: QuoteRequest): Promise<ProviderFloatQuote> {
    return this.current.getFloatQuote(request);
  }

  async getFixedQuote(request: QuoteRequest): Promise<ProviderFixedQuote> {
    return this.current.getFixedQuote(request);
  }

  async createTransaction(request: CreateTransactionRequest): Promise<ProviderTransaction> {
    return this.current.createTransaction(request);
  }

  async createFixedTransaction(
    request: CreateFixedTransactionRequest,
  ): Promise<ProviderTransaction> {
    return this.current.createFixedTransaction(request);
  }

  async getTransactions(query: TransactionQuery): Promise<ProviderTransaction[]> {
    return this.current.getTransactions(query);
  }

  async validateAddress(currency: string, address: string): Promise<AddressValidation> {
    return this.current.validateAddress(currency, address);
  }
}
