import type { SwapMode } from './swap-mode.js';
import type { SwapStatus } from './swap-status.js';

/**
 * The Swap resource as partners read it: every field present, null where unknown. Here, below
 * every lib, so the events lib can carry it without depending on the swaps lib.
 */
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
