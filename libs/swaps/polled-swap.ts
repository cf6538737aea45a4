import type { ProviderName, SwapStatus } from '#app/domain';
import type { SwapViewRow } from './swap.view.js';

/** The settlement fields of a swap as the poller keeps them, timestamps in ISO form. */
export type SettlementFields = Pick<
  SwapViewRow,
  | 'payinHash'
  | 'payoutHash'
  | 'refundHash'
  | 'amountActualFrom'
  | 'amountActualTo'
  | 'actualNetworkFee'
  | 'moneyReceivedAt'
  | 'moneySentAt'
  | 'amountAnomalyPct'
>;

/**
 * What the poller knows about a swap it holds: the swap as a partner reads it (so the event of a
 * change carries the swap exactly as `GET /v1/swaps/{id}` will show it) and where the provider
 * keeps it.
 */
export interface PolledSwap extends SwapViewRow {
  organizationId: string;
  /** The provider it lives at, and its transaction there. */
  provider: ProviderName;
  providerTransactionId: string;
}

/** One lane of the poller: the swaps of one provider in one mode. */
export interface PollScope {
  provider: ProviderName;
  livemode: boolean;
}

/** A swap the poller refreshes, with its org's fee and how late its refresh is. */
export interface RefreshedSwap extends PolledSwap {
  feePercent: string;
  lagMs: number;
}

/** What one refresh writes back. */
export interface PolledUpdate {
  status: SwapStatus;
  fields: SettlementFields;
  /** Recorded in `swap_events` when the status changed. */
  transition: { from: SwapStatus; to: SwapStatus; providerStatus: string } | null;
}

/** One swap's refresh to write back: guarded by the status it was read in. */
export interface PolledWrite {
  swap: PolledSwap;
  update: PolledUpdate;
}
