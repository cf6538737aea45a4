import { anomalyPercent, judgeTransition, type SwapStatus } from '#app/domain';
import type { ProviderTransaction } from '#app/provider';

/** The settlement fields of a swap as the poller keeps them. */
export interface SettlementFields {
  payinHash: string | null;
  payoutHash: string | null;
  amountActualFrom: string | null;
  amountActualTo: string | null;
  actualNetworkFee: string | null;
  moneyReceivedAt: Date | null;
  moneySentAt: Date | null;
  amountAnomalyPct: string | null;
}

/** What the poller knows about a swap it holds: enough to judge and merge a provider report. */
export interface PolledSwap extends SettlementFields {
  id: string;
  organizationId: string;
  providerTransactionId: string;
  status: SwapStatus;
  from: string;
  amountFrom: string;
}

export type SettlementPlan =
  | { kind: 'violation'; from: SwapStatus; to: SwapStatus }
  | { kind: 'update'; from: SwapStatus; to: SwapStatus; fields: SettlementFields };

function date(iso: string | null): Date | null {
  return iso === null ? null : new Date(iso);
}

/**
 * Merges a provider report into a stored swap. A field the provider reports replaces the stored
 * one; a field it does not (yet) report never erases what is known. A report that breaks the
 * transition graph is not merged at all.
 */
export function planSettlement(swap: PolledSwap, tx: ProviderTransaction): SettlementPlan {
  const verdict = judgeTransition(swap.status, tx.status);
  if (verdict.kind === 'violation') {
    return { kind: 'violation', from: swap.status, to: verdict.to };
  }
  const amountActualFrom = tx.amountActualFrom ?? swap.amountActualFrom;
  return {
    kind: 'update',
    from: swap.status,
    to: verdict.kind === 'advance' ? verdict.to : swap.status,
    fields: {
      payinHash: tx.payinHash ?? swap.payinHash,
      payoutHash: tx.payoutHash ?? swap.payoutHash,
      amountActualFrom,
      amountActualTo: tx.amountActualTo ?? swap.amountActualTo,
      actualNetworkFee: tx.actualNetworkFee ?? swap.actualNetworkFee,
      moneyReceivedAt: date(tx.moneyReceivedAt) ?? swap.moneyReceivedAt,
      moneySentAt: date(tx.moneySentAt) ?? swap.moneySentAt,
      amountAnomalyPct: anomalyPercent(swap.amountFrom, amountActualFrom),
    },
  };
}
