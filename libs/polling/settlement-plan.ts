import { Decimal } from 'decimal.js';
import { anomalyPercent, judgeTransition, type SwapStatus } from '#app/domain';
import type { ProviderTransaction } from '#app/provider';
import type { PolledSwap, SettlementFields } from '#app/swaps';

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

function same(a: string | Date | null, b: string | Date | null): boolean {
  if (a === null || b === null) {
    return a === b;
  }
  if (a instanceof Date || b instanceof Date) {
    return new Date(a).getTime() === new Date(b).getTime();
  }
  return a === b || (/^-?[\d.]+$/.test(a) && /^-?[\d.]+$/.test(b) && new Decimal(a).eq(b));
}

/** Whether an update would change anything a partner can read. */
export function changesSwap(
  swap: PolledSwap,
  plan: Extract<SettlementPlan, { kind: 'update' }>,
): boolean {
  return (
    plan.to !== swap.status ||
    (Object.keys(plan.fields) as (keyof SettlementFields)[]).some(
      (field) => !same(swap[field], plan.fields[field]),
    )
  );
}
