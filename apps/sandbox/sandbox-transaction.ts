import type { Decimal } from 'decimal.js';
import type { ProviderName, ProviderStatus, SwapMode } from '#app/domain';
import type { SandboxCurrency } from './catalogue.js';

/** The lifecycle after a deposit, one step per `stepMs`. */
export const LIFECYCLE_STEPS = ['confirming', 'exchanging', 'sending', 'finished'] as const;
export type LifecycleStep = (typeof LIFECYCLE_STEPS)[number];

export interface Deposit {
  amount: Decimal;
  atMs: number;
  hash: string;
}

export interface Payout {
  amount: Decimal;
  hash: string;
}

/** A running lifecycle: the step entered at `sinceMs`. */
export interface LifecycleRun {
  step: LifecycleStep;
  sinceMs: number;
}

/** A transaction as the sandbox keeps it; the wire mapper turns it into upstream's shapes. */
export interface SandboxTransaction {
  id: string;
  /** Whose API created it; only that API reports it. */
  provider: ProviderName;
  type: SwapMode;
  from: SandboxCurrency;
  to: SandboxCurrency;
  payinAddress: string;
  payoutAddress: string;
  refundAddress: string | null;
  /** The partner's own note on the transaction, returned as given. */
  userMetadata: string | null;
  /** ChangeNOW's note on the transaction (`payload`), returned as given. */
  payload: Record<string, string> | null;
  amountExpectedFrom: Decimal;
  amountExpectedTo: Decimal;
  networkFee: Decimal;
  rate: Decimal;
  createdAtMs: number;
  payTillMs: number | null;
  status: ProviderStatus;
  /** When it entered its status (ChangeNOW's `updatedAt`). */
  statusSinceMs: number;
  /** Null when the status is frozen. */
  clock: LifecycleRun | null;
  deposit: Deposit | null;
  /** Decided at deposit time, reported once the payout is sent. */
  payout: Payout | null;
  moneySentMs: number | null;
  /** The deposit's way back to the refund address, once the transaction is refunded. */
  refundHash: string | null;
}
