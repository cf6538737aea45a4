import type { CredentialMode } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { requestContext } from '#app/logging';
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

/**
 * `LIQUIDITY_PROVIDER` as the api and its libraries see it: each call goes to the provider of
 * the mode of the credential the request authenticated with (the request context), so the
 * services that quote, create and read never carry the mode themselves. Outside a request
 * (the poller, start-up) it is the live provider; the poller picks its lane's provider itself.
 */
export class ModeRoutedProvider implements LiquidityProvider {
  constructor(private readonly providers: LiquidityProviders) {}

  private get current(): LiquidityProvider {
    return this.providers.forMode(requestContext.getStore()?.livemode === false ? 'test' : 'live');
  }

  get id(): string {
    return this.current.id;
  }

  getCurrencies(): Promise<ProviderCurrency[]> {
    return this.current.getCurrencies();
  }

  getPairParams(from: string, to: string): Promise<ProviderPairParams> {
    return this.current.getPairParams(from, to);
  }

  getFloatQuote(request: QuoteRequest): Promise<ProviderFloatQuote> {
    return this.current.getFloatQuote(request);
  }

  getFixedQuote(request: QuoteRequest): Promise<ProviderFixedQuote> {
    return this.current.getFixedQuote(request);
  }

  createTransaction(request: CreateTransactionRequest): Promise<ProviderTransaction> {
    return this.current.createTransaction(request);
  }

  createFixedTransaction(request: CreateFixedTransactionRequest): Promise<ProviderTransaction> {
    return this.current.createFixedTransaction(request);
  }

  getTransactions(query: TransactionQuery): Promise<ProviderTransaction[]> {
    return this.current.getTransactions(query);
  }

  validateAddress(currency: string, address: string): Promise<AddressValidation> {
    return this.current.validateAddress(currency, address);
  }
}
