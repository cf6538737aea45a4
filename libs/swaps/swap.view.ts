import { anomalyPercent, type SwapMode, type SwapStatus } from '#app/domain';
import type { SwapEntity } from '#app/persistence';

/** The Swap resource of the spec: every field present, null where unknown. */
export interface SwapView {
  id: string;
  providerSwapId: string;
  status: SwapStatus;
  mode: SwapMode;
  /** False for a test-mode swap (sandbox provider, never earning). */
  livemode: boolean;
  from: string;
  to: string;
  amountFrom: string;
  amountExpectedFrom: string;
  amountExpectedTo: string;
  amountActualFrom: string | null;
  amountActualTo: string | null;
  networkFee: string | null;
  actualNetworkFee: string | null;
  rate: string | null;
  payinAddress: string;
  payoutAddress: string;
  refundAddress: string | null;
  payinHash: string | null;
  payoutHash: string | null;
  moneyReceivedAt: string | null;
  moneySentAt: string | null;
  amountAnomalyPct: string | null;
  partnerReferenceId: string | null;
  payTill: string | null;
  createdAt: string;
}

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

export function toSwapView(swap: SwapEntity): SwapView {
  return {
    id: swap.id,
    providerSwapId: swap.id,
    status: swap.status,
    mode: swap.mode,
    livemode: swap.livemode,
    from: swap.from,
    to: swap.to,
    amountFrom: swap.amountFrom,
    amountExpectedFrom: swap.amountFrom,
    amountExpectedTo: swap.amountExpectedTo ?? '0',
    amountActualFrom: swap.amountActualFrom,
    amountActualTo: swap.amountActualTo,
    networkFee: swap.networkFee,
    actualNetworkFee: swap.actualNetworkFee,
    rate: swap.rate,
    payinAddress: swap.payinAddress,
    payoutAddress: swap.payoutAddress,
    refundAddress: swap.refundAddress,
    payinHash: swap.payinHash,
    payoutHash: swap.payoutHash,
    moneyReceivedAt: iso(swap.moneyReceivedAt),
    moneySentAt: iso(swap.moneySentAt),
    amountAnomalyPct:
      swap.amountAnomalyPct ?? anomalyPercent(swap.amountFrom, swap.amountActualFrom),
    partnerReferenceId: swap.partnerReferenceId,
    payTill: iso(swap.payTill),
    createdAt: swap.createdAt.toISOString(),
  };
}
