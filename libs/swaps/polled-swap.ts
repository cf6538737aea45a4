import type { ProviderName, SwapStatus } from '#app/domain';

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
  /** A test swap settles like a live one but never earns. */
  livemode: boolean;
  /** The provider it lives at, and its transaction there. */
  provider: ProviderName;
  providerTransactionId: string;
  status: SwapStatus;
  from: string;
  amountFrom: string;
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
