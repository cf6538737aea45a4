import type { ProviderName, SwapStatus } from '#app/domain';

export { PROVIDER_NAMES, isProviderName, type ProviderName } from '#app/domain';

/**
 * The port every liquidity provider adapter implements. Amounts are decimal strings, timestamps
 * ISO 8601 strings, tickers lowercase as the provider spells them. Every method either resolves
 * with data or rejects with a `ProviderError`; an outage is never turned into an empty result.
 */
export interface LiquidityProvider {
  /** Which provider this is: what operators, logs and metrics call it. */
  readonly name: ProviderName;
  /**
   * Whether the listing form of `getTransactions` filters by status at the provider. Where it
   * does not, the poller lists every transaction since its oldest active swap and applies what
   * is still active, instead of asking for a filter the adapter would have to page through.
   */
  readonly listsByStatus: boolean;
  /**
   * A stable name of the provider endpoint: data derived from its answers (caches shared through
   * the store) is kept under it, so two providers never read each other's.
   */
  readonly id: string;
  getCurrencies(): Promise<ProviderCurrency[]>;
  getPairParams(from: string, to: string): Promise<ProviderPairParams>;
  getFloatQuote(request: QuoteRequest): Promise<ProviderFloatQuote>;
  getFixedQuote(request: QuoteRequest): Promise<ProviderFixedQuote>;
  createTransaction(request: CreateTransactionRequest): Promise<ProviderTransaction>;
  createFixedTransaction(request: CreateFixedTransactionRequest): Promise<ProviderTransaction>;
  /** By ids (at most 10 per call) or by payout address; newest first. */
  getTransactions(query: TransactionQuery): Promise<ProviderTransaction[]>;
  validateAddress(currency: string, address: string): Promise<AddressValidation>;
}

export interface ProviderCurrency {
  ticker: string;
  fullName: string;
  enabled: boolean;
  enabledFrom: boolean;
  enabledTo: boolean;
  fixRateEnabled: boolean;
  payinConfirmations: number;
  extraIdName: string | null;
  image: string | null;
  blockchain: string;
  blockchainPrecision: number;
}

export interface ProviderPairParams {
  from: string;
  to: string;
  minAmountFloat: string;
  maxAmountFloat: string;
  minAmountFixed: string;
  maxAmountFixed: string;
}

export interface QuoteRequest {
  from: string;
  to: string;
  amountFrom: string;
}

export interface ProviderFloatQuote {
  from: string;
  to: string;
  amountFrom: string;
  /** Net of provider fee, not of networkFee. */
  amountTo: string;
  networkFee: string;
  rate: string;
  /** The provider's fee in the payout currency; null where it builds it into the rate unsaid. */
  fee: string | null;
  min: string;
  max: string;
}

export interface ProviderFixedQuote {
  rateId: string;
  from: string;
  to: string;
  amountFrom: string;
  amountTo: string;
  networkFee: string;
  rate: string;
  min: string;
  max: string;
  expiresAt: string;
}

export interface CreateTransactionRequest {
  from: string;
  to: string;
  amountFrom: string;
  address: string;
  refundAddress?: string;
  /** Our own note on the transaction (`userMetadata`), to recognise it again later. */
  userMetadata?: string;
}

export interface CreateFixedTransactionRequest extends CreateTransactionRequest {
  rateId: string;
  refundAddress: string;
}

export interface ProviderTransaction {
  id: string;
  /** Normalized at the adapter: the provider's `new` is `waiting`. */
  status: SwapStatus;
  from: string;
  to: string;
  payinAddress: string;
  payoutAddress: string;
  refundAddress: string | null;
  /** Our note, as the provider reports it back; null when it reports none. */
  userMetadata: string | null;
  amountExpectedFrom: string;
  amountExpectedTo: string;
  networkFee: string | null;
  rate: string | null;
  payTill: string | null;
  createdAt: string;
  payinHash: string | null;
  payoutHash: string | null;
  /** The refund's transaction hash, once a refunded deposit went back. */
  refundHash: string | null;
  amountActualFrom: string | null;
  amountActualTo: string | null;
  actualNetworkFee: string | null;
  moneyReceivedAt: string | null;
  moneySentAt: string | null;
}

/**
 * By ids (any number; asked 10 per call), or one page of a listing, newest first: by payout
 * address, by status, created at or after `since` (ISO 8601), `limit` ≤ 100 per page.
 */
export type TransactionQuery =
  | { ids: string[] }
  | {
      payoutAddress?: string;
      statuses?: SwapStatus[];
      since?: string;
      limit?: number;
      offset?: number;
    };

export interface AddressValidation {
  result: boolean;
  message?: string;
}
