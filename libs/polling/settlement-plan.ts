import { Decimal } from 'decimal.js';
import { anomalyPercent, judgeTransition, type SwapStatus } from '#app/domain';
import type { ProviderTransaction } from '#app/provider';
import type { PolledSwap, SettlementFields } from '#app/swaps';

export type SettlementPlan =
  | { kind: 'violation'; from: SwapStatus; to: SwapStatus }
  | { kind: 'update'; from: SwapStatus; to: SwapStatus; fields: SettlementFields };

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
      refundHash: tx.refundHash ?? swap.refundHash,
      amountActualFrom,
      amountActualTo: tx.amountActualTo ?? swap.amountActualTo,
      actualNetworkFee: tx.actualNetworkFee ?? swap.actualNetworkFee,
      moneyReceivedAt: tx.moneyReceivedAt ?? swap.moneyReceivedAt,
      moneySentAt: tx.moneySentAt ?? swap.moneySentAt,
      amountAnomalyPct: anomalyPercent(swap.amountFrom, amountActualFrom),
    },
  };
}

const TIMESTAMPS: (keyof SettlementFields)[] = ['moneyReceivedAt', 'moneySentAt'];

/** Timestamps (ISO text) equal as instants, amounts (decimal text) as numbers, the rest as text. */
function same(field: keyof SettlementFields, a: string | null, b: string | null): boolean {
  if (a === null || b === null || a === b) {
    return a === b;
  }
  if (TIMESTAMPS.includes(field)) {
    return Date.parse(a) === Date.parse(b);
  }
  return /^-?[\d.]+$/.test(a) && /^-?[\d.]+$/.test(b) && new Decimal(a).eq(b);
}

/** Whether an update would change anything a partner can read. */
export function changesSwap(
  swap: PolledSwap,
  plan: Extract<SettlementPlan, { kind: 'update' }>,
): boolean {
  return (
    plan.to !== swap.status ||
    (Object.keys(plan.fields) as (keyof SettlementFields)[]).some(
      (field) => !same(field, swap[field], plan.fields[field]),
    )
  );
}
