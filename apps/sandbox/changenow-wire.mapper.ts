import type { Decimal } from 'decimal.js';
import type { ProviderStatus, SwapMode } from '#app/domain';
import {
  jsonNumber,
  type ChangeNowFlow,
  type ChangeNowStatus,
  type ChangeNowWireCreated,
  type ChangeNowWireCurrency,
  type ChangeNowWireExchange,
  type JsonNumber,
} from '#app/provider';
import type { SandboxCurrency } from './catalogue.js';
import type { SandboxTransaction } from './sandbox-transaction.js';

/** Amounts travel as exact JSON numbers, as ChangeNOW sends them. */
export function amount(value: Decimal): JsonNumber {
  return jsonNumber(value.toFixed());
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function flowOf(type: SwapMode): ChangeNowFlow {
  return type === 'float' ? 'standard' : 'fixed-rate';
}

/**
 * The sandbox keeps the service's status words; ChangeNOW says `verifying` for a hold and
 * `expired` for a float swap whose window passed without a deposit.
 */
export function toChangeNowStatus(status: ProviderStatus): ChangeNowStatus {
  switch (status) {
    case 'hold':
      return 'verifying';
    case 'overdue':
      return 'expired';
    case 'new':
    case 'waiting':
    case 'confirming':
    case 'exchanging':
    case 'sending':
    case 'finished':
    case 'failed':
    case 'refunded':
    case 'expired':
      return status;
  }
}

/** Both sides of a pair in ChangeNOW's names. */
export function pairNames(
  from: SandboxCurrency,
  to: SandboxCurrency,
): { fromCurrency: string; fromNetwork: string; toCurrency: string; toNetwork: string } {
  return {
    fromCurrency: from.changenow.ticker,
    fromNetwork: from.changenow.network,
    toCurrency: to.changenow.ticker,
    toNetwork: to.changenow.network,
  };
}

export function toChangeNowCurrency(c: SandboxCurrency): ChangeNowWireCurrency {
  return {
    ticker: c.changenow.ticker,
    name: c.fullName,
    image: `https://static.sandbox.invalid/coins/${c.ticker}.svg`,
    hasExternalId: c.extraIdName !== null,
    isExtraIdSupported: c.extraIdName !== null,
    isFiat: false,
    featured: false,
    isStable: c.stable === true,
    supportsFixedRate: true,
    network: c.changenow.network,
    tokenContract: c.contractAddress ?? null,
    buy: c.enabled && c.enabledTo,
    sell: c.enabled && c.enabledFrom,
    legacyTicker: c.ticker,
  };
}

export function toChangeNowCreated(tx: SandboxTransaction): ChangeNowWireCreated {
  return {
    id: tx.id,
    ...pairNames(tx.from, tx.to),
    flow: flowOf(tx.type),
    type: 'direct',
    status: toChangeNowStatus(tx.status),
    fromAmount: amount(tx.amountExpectedFrom),
    toAmount: amount(tx.amountExpectedTo),
    payinAddress: tx.payinAddress,
    payoutAddress: tx.payoutAddress,
    payinExtraId: null,
    payoutExtraId: null,
    refundAddress: tx.refundAddress,
    refundExtraId: null,
    payload: tx.payload,
    createdAt: iso(tx.createdAtMs),
    validUntil: tx.payTillMs === null ? null : iso(tx.payTillMs),
  };
}

/** The payout's amount and hash show only once it is sent. */
export function toChangeNowExchange(tx: SandboxTransaction): ChangeNowWireExchange {
  const sent = tx.moneySentMs !== null && tx.payout !== null;
  return {
    id: tx.id,
    status: toChangeNowStatus(tx.status),
    actionsAvailable: false,
    ...pairNames(tx.from, tx.to),
    flow: flowOf(tx.type),
    expectedAmountFrom: amount(tx.amountExpectedFrom),
    expectedAmountTo: amount(tx.amountExpectedTo),
    amountFrom: tx.deposit ? amount(tx.deposit.amount) : null,
    amountTo: sent && tx.payout ? amount(tx.payout.amount) : null,
    payinAddress: tx.payinAddress,
    payoutAddress: tx.payoutAddress,
    payinExtraId: null,
    payoutExtraId: null,
    refundAddress: tx.refundAddress,
    refundExtraId: null,
    createdAt: iso(tx.createdAtMs),
    updatedAt: iso(tx.statusSinceMs),
    depositReceivedAt: tx.deposit ? iso(tx.deposit.atMs) : null,
    payinHash: tx.deposit?.hash ?? null,
    payoutHash: sent ? (tx.payout?.hash ?? null) : null,
    fromLegacyTicker: tx.from.ticker,
    toLegacyTicker: tx.to.ticker,
    refundHash: tx.refundHash,
    refundAmount: null,
    userId: null,
    validUntil: tx.payTillMs === null ? null : iso(tx.payTillMs),
    payload: tx.payload,
  };
}
