import type { SwapMode } from '#app/domain';

/**
 * The Changelly-API-v2-compatible wire format (docs/decisions.md, "The provider's wire protocol"):
 * what the adapter sends and the sandbox serves. Amounts are decimal strings; time units differ per
 * method, as upstream.
 */

export interface RpcRequest {
  jsonrpc: '2.0';
  id: string | number | null;
  method: string;
  params?: unknown;
}

export interface RpcErrorBody {
  code: number;
  message: string;
}

export type RpcResponse =
  | { jsonrpc: '2.0'; id: string | number | null; result: unknown }
  | { jsonrpc: '2.0'; id: string | number | null; error: RpcErrorBody };

export const RPC_METHODS = [
  'getCurrenciesFull',
  'getPairsParams',
  'getExchangeAmount',
  'getFixRateForAmount',
  'createTransaction',
  'createFixTransaction',
  'getTransactions',
  'getStatus',
  'validateAddress',
] as const;

export type RpcMethod = (typeof RPC_METHODS)[number];

export interface WireCurrency {
  ticker: string;
  fullName: string;
  enabled: boolean;
  enabledFrom: boolean;
  enabledTo: boolean;
  fixRateEnabled: boolean;
  payinConfirmations: number;
  extraIdName: string | null;
  addressUrl: string;
  transactionUrl: string;
  image: string | null;
  fixedTime: number;
  protocol: string;
  blockchain: string;
  blockchainPrecision: number;
  contractAddress?: string;
}

export interface WirePairParams {
  from: string;
  to: string;
  minAmountFloat: string;
  maxAmountFloat: string;
  minAmountFixed: string;
  maxAmountFixed: string;
}

export interface WireFloatQuote {
  from: string;
  to: string;
  amountFrom: string;
  amountTo: string;
  networkFee: string;
  rate: string;
  fee: string;
  min: string;
  max: string;
  minFrom: string;
  maxFrom: string;
  visibleAmount: string;
}

export interface WireFixedQuote {
  id: string;
  result: string;
  from: string;
  to: string;
  amountFrom: string;
  amountTo: string;
  networkFee: string;
  min: string;
  max: string;
  /** Unix seconds. */
  expiredAt: number;
}

export interface WireCreatedTransaction {
  id: string;
  type: SwapMode;
  status: string;
  currencyFrom: string;
  currencyTo: string;
  payinAddress: string;
  payinExtraId: string | null;
  payoutAddress: string;
  payoutExtraId: string | null;
  refundAddress: string | null;
  /** What the caller sent as `userMetadata`, if anything. */
  userMetadata: string | null;
  amountExpectedFrom: string;
  amountExpectedTo: string;
  networkFee: string;
  rate: string;
  /** ISO 8601, fixed swaps only. */
  payTill: string | null;
  /** Unix microseconds, as upstream's createTransaction answers. */
  createdAt: number;
}

export interface WireTransaction {
  id: string;
  type: SwapMode;
  status: string;
  currencyFrom: string;
  currencyTo: string;
  payinAddress: string;
  payoutAddress: string;
  refundAddress: string | null;
  userMetadata: string | null;
  amountExpectedFrom: string;
  amountExpectedTo: string;
  /** Actually received; "0" until the deposit is seen. */
  amountFrom: string;
  /** Actually sent; "0" until the payout. */
  amountTo: string;
  networkFee: string;
  rate: string;
  payinHash: string | null;
  payoutHash: string | null;
  /** The refund's transaction, once a refunded deposit went back. */
  refundHash: string | null;
  /** Unix seconds; 0 until it happened. */
  moneyReceived: number;
  moneySent: number;
  /** Unix seconds. */
  createdAt: number;
  payTill: string | null;
}

export interface WireAddressValidation {
  result: boolean;
  message?: string;
}
