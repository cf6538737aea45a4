import type { ProviderName } from '#app/domain';
import type { Decimal } from 'decimal.js';
import type { AddressCheck } from '#app/chains';
import type {
  WireAddressValidation,
  WireCreatedTransaction,
  WireCurrency,
  WireFixedQuote,
  WireFloatQuote,
  WirePairParams,
  WireTransaction,
} from '#app/provider';
import type { SandboxCurrency } from './catalogue.js';
import type { FloatPrice, PairBounds } from './market.js';
import type { FixedRate } from './rate.book.js';
import type { LifecycleRun, SandboxTransaction } from './sandbox-transaction.js';

/**
 * The internal view `GET /sandbox/transactions/:id` answers for either provider's transaction:
 * Changelly's shape and the contract's status words, the provider and ChangeNOW's payload.
 */
export interface SandboxTransactionView extends WireTransaction {
  provider: ProviderName;
  payload: Record<string, string> | null;
  clock: LifecycleRun | null;
}

/** Upstream mixes time units: Unix seconds in most places. */
function seconds(ms: number): number {
  return Math.floor(ms / 1000);
}

function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

export function toWireCurrency(c: SandboxCurrency): WireCurrency {
  return {
    ticker: c.ticker,
    fullName: c.fullName,
    enabled: c.enabled,
    enabledFrom: c.enabledFrom,
    enabledTo: c.enabledTo,
    fixRateEnabled: c.fixRateEnabled,
    payinConfirmations: c.payinConfirmations,
    extraIdName: c.extraIdName,
    addressUrl: `https://explorer.sandbox.invalid/${c.blockchain}/address/%1$s`,
    transactionUrl: `https://explorer.sandbox.invalid/${c.blockchain}/tx/%1$s`,
    image: c.ticker === 'etc' ? null : `https://static.sandbox.invalid/coins/${c.ticker}.svg`,
    fixedTime: 1_200_000,
    protocol: c.protocol,
    blockchain: c.blockchain,
    blockchainPrecision: c.precision,
    ...(c.contractAddress ? { contractAddress: c.contractAddress } : {}),
  };
}

/** Fixed bounds are "0" for a pair without fixed rates. */
export function toWirePairParams(
  from: SandboxCurrency,
  to: SandboxCurrency,
  bounds: PairBounds,
): WirePairParams {
  const fixed = from.fixRateEnabled && to.fixRateEnabled;
  return {
    from: from.ticker,
    to: to.ticker,
    minAmountFloat: bounds.minFloat.toFixed(),
    maxAmountFloat: bounds.maxFloat.toFixed(),
    minAmountFixed: fixed ? bounds.minFixed.toFixed() : '0',
    maxAmountFixed: fixed ? bounds.maxFixed.toFixed() : '0',
  };
}

export function toWireFloatQuote(
  from: SandboxCurrency,
  to: SandboxCurrency,
  amountFrom: Decimal,
  price: FloatPrice,
  bounds: PairBounds,
): WireFloatQuote {
  return {
    from: from.ticker,
    to: to.ticker,
    amountFrom: amountFrom.toFixed(),
    amountTo: price.amountTo.toFixed(),
    networkFee: price.networkFee.toFixed(),
    rate: price.rate.toFixed(),
    fee: price.fee.toFixed(),
    min: bounds.minFloat.toFixed(),
    max: bounds.maxFloat.toFixed(),
    minFrom: bounds.minFloat.toFixed(),
    maxFrom: bounds.maxFloat.toFixed(),
    visibleAmount: price.amountTo.toFixed(),
  };
}

export function toWireFixedQuote(rate: FixedRate, bounds: PairBounds): WireFixedQuote {
  return {
    id: rate.id,
    result: rate.rate.toFixed(),
    from: rate.from,
    to: rate.to,
    amountFrom: rate.amountFrom.toFixed(),
    amountTo: rate.amountTo.toFixed(),
    networkFee: rate.networkFee.toFixed(),
    min: bounds.minFixed.toFixed(),
    max: bounds.maxFixed.toFixed(),
    expiredAt: seconds(rate.expiresAtMs),
  };
}

export function toWireCreatedTransaction(tx: SandboxTransaction): WireCreatedTransaction {
  return {
    id: tx.id,
    type: tx.type,
    status: tx.status,
    currencyFrom: tx.from.ticker,
    currencyTo: tx.to.ticker,
    payinAddress: tx.payinAddress,
    payinExtraId: null,
    payoutAddress: tx.payoutAddress,
    payoutExtraId: null,
    refundAddress: tx.refundAddress,
    userMetadata: tx.userMetadata,
    amountExpectedFrom: tx.amountExpectedFrom.toFixed(),
    amountExpectedTo: tx.amountExpectedTo.toFixed(),
    networkFee: tx.networkFee.toFixed(),
    rate: tx.rate.toFixed(),
    payTill: isoOrNull(tx.payTillMs),
    // Upstream's createTransaction reports microseconds.
    createdAt: tx.createdAtMs * 1000,
  };
}

/** The payout's amount and hash show only once it is sent. */
export function toWireTransaction(tx: SandboxTransaction): WireTransaction {
  const sent = tx.moneySentMs !== null && tx.payout !== null;
  return {
    id: tx.id,
    type: tx.type,
    status: tx.status,
    currencyFrom: tx.from.ticker,
    currencyTo: tx.to.ticker,
    payinAddress: tx.payinAddress,
    payoutAddress: tx.payoutAddress,
    refundAddress: tx.refundAddress,
    userMetadata: tx.userMetadata,
    amountExpectedFrom: tx.amountExpectedFrom.toFixed(),
    amountExpectedTo: tx.amountExpectedTo.toFixed(),
    amountFrom: tx.deposit?.amount.toFixed() ?? '0',
    amountTo: sent ? (tx.payout?.amount.toFixed() ?? '0') : '0',
    networkFee: tx.networkFee.toFixed(),
    rate: tx.rate.toFixed(),
    payinHash: tx.deposit?.hash ?? null,
    payoutHash: sent ? (tx.payout?.hash ?? null) : null,
    refundHash: tx.refundHash,
    moneyReceived: tx.deposit ? seconds(tx.deposit.atMs) : 0,
    moneySent: sent && tx.moneySentMs !== null ? seconds(tx.moneySentMs) : 0,
    createdAt: seconds(tx.createdAtMs),
    payTill: isoOrNull(tx.payTillMs),
  };
}

export function toTransactionView(tx: SandboxTransaction): SandboxTransactionView {
  return {
    ...toWireTransaction(tx),
    provider: tx.provider,
    payload: tx.payload,
    clock: tx.clock ? { ...tx.clock } : null,
  };
}

export function toWireAddressValidation(check: AddressCheck): WireAddressValidation {
  return check.valid
    ? { result: true }
    : { result: false, message: check.reason ?? 'Invalid address' };
}
