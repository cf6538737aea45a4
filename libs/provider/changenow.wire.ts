import type { JsonNumber } from './exact-json.js';

/**
 * The ChangeNOW-API-v2-style wire format (docs/decisions.md, "The ChangeNOW wire protocol"): what
 * the adapter sends and the sandbox serves under `<CHANGENOW_URL>/v2/…`. Amounts are JSON numbers
 * (read exactly, see exact-json.ts), times ISO 8601 strings, a currency a ticker plus a network.
 */

export const CHANGENOW_API_KEY_HEADER = 'x-changenow-api-key';

/** The operations, as fault `method`s, stats keys and metric labels name them. */
export const CHANGENOW_OPERATIONS = [
  'currencies',
  'range',
  'estimated-amount',
  'exchange',
  'exchanges',
  'by-id',
  'validate-address',
] as const;
export type ChangeNowOperation = (typeof CHANGENOW_OPERATIONS)[number];

/** Float is `standard`, fixed is `fixed-rate`. */
export const CHANGENOW_FLOWS = ['standard', 'fixed-rate'] as const;
export type ChangeNowFlow = (typeof CHANGENOW_FLOWS)[number];

export const CHANGENOW_STATUSES = [
  'new',
  'waiting',
  'confirming',
  'exchanging',
  'sending',
  'finished',
  'failed',
  'refunded',
  'verifying',
  'expired',
] as const;
export type ChangeNowStatus = (typeof CHANGENOW_STATUSES)[number];

/** The error words of a 4xx answer the adapter tells apart. */
export const CHANGENOW_ERRORS = {
  outOfRange: 'out_of_range',
  notValidAddress: 'not_valid_address',
  pairIsInactive: 'pair_is_inactive',
  rateIdNotFoundOrExpired: 'rate_id_not_found_or_expired',
  notValidParams: 'not_valid_params',
  notFound: 'not_found',
  unauthorized: 'unauthorized',
  tooManyRequests: 'too_many_requests',
} as const;

/** Every 4xx answer: `{"error": "<word>", "message": "…"}`. */
export interface ChangeNowErrorBody {
  error: string;
  message: string;
}

/** Our note on a transaction, given back on every read: up to 5 fields of ≤ 64 characters. */
export type ChangeNowPayload = Record<string, string>;

/** `GET /v2/exchange/currencies?active=true` answers an array of these. */
export interface ChangeNowWireCurrency {
  ticker: string;
  name: string;
  image: string;
  hasExternalId: boolean;
  isExtraIdSupported: boolean;
  isFiat: boolean;
  featured: boolean;
  isStable: boolean;
  supportsFixedRate: boolean;
  network: string;
  tokenContract: string | null;
  /** Can be received (a swap's `to`). */
  buy: boolean;
  /** Can be sent (a swap's `from`). */
  sell: boolean;
  legacyTicker: string;
}

interface WirePair {
  fromCurrency: string;
  fromNetwork: string;
  toCurrency: string;
  toNetwork: string;
  flow: ChangeNowFlow;
}

/** `GET /v2/exchange/range`: a null maximum means none. */
export interface ChangeNowWireRange extends WirePair {
  minAmount: JsonNumber;
  maxAmount: JsonNumber | null;
}

/**
 * `GET /v2/exchange/estimated-amount`: `toAmount` is what the user receives, the provider's fee
 * and the payout's network fee (`withdrawalFee`) already taken off.
 */
export interface ChangeNowWireEstimate extends WirePair {
  type: 'direct';
  /** Fixed-rate with `useRateId=true` only. */
  rateId: string | null;
  validUntil: string | null;
  transactionSpeedForecast: string | null;
  warningMessage: string | null;
  depositFee: JsonNumber;
  withdrawalFee: JsonNumber;
  userId: string | null;
  fromAmount: JsonNumber;
  toAmount: JsonNumber;
}

/** The body of `POST /v2/exchange`. */
export interface ChangeNowCreateBody {
  fromCurrency: string;
  fromNetwork: string;
  toCurrency: string;
  toNetwork: string;
  fromAmount: string;
  address: string;
  refundAddress?: string;
  flow: ChangeNowFlow;
  type: 'direct';
  rateId?: string;
  payload?: ChangeNowPayload;
}

/** What `POST /v2/exchange` answers: the expected amounts, addresses and our payload. */
export interface ChangeNowWireCreated extends WirePair {
  id: string;
  type: 'direct';
  status: ChangeNowStatus;
  fromAmount: JsonNumber;
  toAmount: JsonNumber;
  payinAddress: string;
  payoutAddress: string;
  payinExtraId: string | null;
  payoutExtraId: string | null;
  refundAddress: string | null;
  refundExtraId: string | null;
  payload: ChangeNowPayload | null;
  createdAt: string;
  /** The deposit deadline of a fixed-rate exchange; null for a standard one. */
  validUntil: string | null;
}

/** `GET /v2/exchange/by-id`, and each entry of `GET /v2/exchanges`. */
export interface ChangeNowWireExchange extends WirePair {
  id: string;
  status: ChangeNowStatus;
  actionsAvailable: boolean;
  expectedAmountFrom: JsonNumber;
  expectedAmountTo: JsonNumber;
  /** Received; null until the deposit is seen. */
  amountFrom: JsonNumber | null;
  /** Sent; null until the payout. */
  amountTo: JsonNumber | null;
  payinAddress: string;
  payoutAddress: string;
  payinExtraId: string | null;
  payoutExtraId: string | null;
  refundAddress: string | null;
  refundExtraId: string | null;
  createdAt: string;
  updatedAt: string;
  depositReceivedAt: string | null;
  payinHash: string | null;
  payoutHash: string | null;
  fromLegacyTicker: string;
  toLegacyTicker: string;
  refundHash: string | null;
  refundAmount: JsonNumber | null;
  userId: string | null;
  validUntil: string | null;
  payload: ChangeNowPayload | null;
}

/** `GET /v2/exchanges`: the API key's transactions, newest first. */
export interface ChangeNowWireExchanges {
  count: number;
  exchanges: ChangeNowWireExchange[];
}

/** `GET /v2/validate/address?currency=<network>&address=…`. */
export interface ChangeNowWireAddressValidation {
  result: boolean;
  message: string | null;
  isActivated: boolean | null;
}
