import {
  anomalyPercent,
  type ProviderName,
  type SwapMode,
  type SwapStatus,
  type SwapView,
} from '#app/domain';
import type { SwapEntity } from '#app/persistence';

export type { SwapView };

/**
 * A stored swap as a partner read selects it: the columns of the view (`SWAP_VIEW_FIELDS`, each a
 * property of the entity), timestamps already in ISO form. Both the entity and a selected row
 * become a view through `viewOfRow`, so the two cannot drift apart.
 */
export interface SwapViewRow {
  id: string;
  status: SwapStatus;
  mode: SwapMode;
  livemode: boolean;
  from: string;
  to: string;
  amountFrom: string;
  amountExpectedTo: string | null;
  amountActualFrom: string | null;
  amountActualTo: string | null;
  networkFee: string | null;
  actualNetworkFee: string | null;
  rate: string | null;
  amountAnomalyPct: string | null;
  payinAddress: string;
  payoutAddress: string;
  refundAddress: string | null;
  payinHash: string | null;
  payoutHash: string | null;
  /** Not in the partner's Swap resource (the spec's fields); the widget's "Refunded" shows it. */
  refundHash: string | null;
  moneyReceivedAt: string | null;
  moneySentAt: string | null;
  partnerReferenceId: string | null;
  payTill: string | null;
  createdAt: string;
}

/** A record over the row's keys, so a field added to the row without its column fails to compile. */
const VIEW_COLUMNS: Record<keyof SwapViewRow, true> = {
  id: true,
  status: true,
  mode: true,
  livemode: true,
  from: true,
  to: true,
  amountFrom: true,
  amountExpectedTo: true,
  amountActualFrom: true,
  amountActualTo: true,
  networkFee: true,
  actualNetworkFee: true,
  rate: true,
  amountAnomalyPct: true,
  payinAddress: true,
  payoutAddress: true,
  refundAddress: true,
  payinHash: true,
  payoutHash: true,
  refundHash: true,
  moneyReceivedAt: true,
  moneySentAt: true,
  partnerReferenceId: true,
  payTill: true,
  createdAt: true,
};
/** What a partner read selects of a swap: `EntityColumns.select(alias, SWAP_VIEW_FIELDS, { iso: true })`. */
export const SWAP_VIEW_FIELDS = Object.keys(VIEW_COLUMNS) as (keyof SwapViewRow)[];

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

export function viewOfRow(row: SwapViewRow): SwapView {
  return {
    id: row.id,
    providerSwapId: row.id,
    status: row.status,
    mode: row.mode,
    livemode: row.livemode,
    from: row.from,
    to: row.to,
    amountFrom: row.amountFrom,
    amountExpectedFrom: row.amountFrom,
    amountExpectedTo: row.amountExpectedTo ?? '0',
    amountActualFrom: row.amountActualFrom,
    amountActualTo: row.amountActualTo,
    networkFee: row.networkFee,
    actualNetworkFee: row.actualNetworkFee,
    rate: row.rate,
    payinAddress: row.payinAddress,
    payoutAddress: row.payoutAddress,
    refundAddress: row.refundAddress,
    payinHash: row.payinHash,
    payoutHash: row.payoutHash,
    moneyReceivedAt: row.moneyReceivedAt,
    moneySentAt: row.moneySentAt,
    amountAnomalyPct: row.amountAnomalyPct ?? anomalyPercent(row.amountFrom, row.amountActualFrom),
    partnerReferenceId: row.partnerReferenceId,
    payTill: row.payTill,
    createdAt: row.createdAt,
  };
}

/** Where a swap lives and whose it is: what operators read of a swap beyond its partner view. */
export interface SwapPlacement {
  provider: ProviderName;
  /** Null for an imported swap whose provider id was not carried over. */
  providerTransactionId: string | null;
  organizationId: string;
}

/** A swap with its refund's hash: what the widget's "Refunded" screen shows. */
export type RefundedSwapView = SwapView & Pick<SwapViewRow, 'refundHash'>;

/** A swap as operators read it (`GET /admin/swaps/{id}`, `swap:show`): every partner field too. */
export type OperatorSwapView = SwapView & SwapPlacement;

/** A stored entity as the row a partner read selects. */
export function swapViewRow(swap: SwapEntity): SwapViewRow {
  return {
    id: swap.id,
    status: swap.status,
    mode: swap.mode,
    livemode: swap.livemode,
    from: swap.from,
    to: swap.to,
    amountFrom: swap.amountFrom,
    amountExpectedTo: swap.amountExpectedTo,
    amountActualFrom: swap.amountActualFrom,
    amountActualTo: swap.amountActualTo,
    networkFee: swap.networkFee,
    actualNetworkFee: swap.actualNetworkFee,
    rate: swap.rate,
    amountAnomalyPct: swap.amountAnomalyPct,
    payinAddress: swap.payinAddress,
    payoutAddress: swap.payoutAddress,
    refundAddress: swap.refundAddress,
    payinHash: swap.payinHash,
    payoutHash: swap.payoutHash,
    refundHash: swap.refundHash,
    moneyReceivedAt: iso(swap.moneyReceivedAt),
    moneySentAt: iso(swap.moneySentAt),
    partnerReferenceId: swap.partnerReferenceId,
    payTill: iso(swap.payTill),
    createdAt: swap.createdAt.toISOString(),
  };
}

export function toSwapView(swap: SwapEntity): SwapView {
  return viewOfRow(swapViewRow(swap));
}
