import type { ProviderStatus } from '#app/domain';
import {
  LIFECYCLE_STEPS,
  type Deposit,
  type LifecycleStep,
  type SandboxTransaction,
} from './sandbox-transaction.js';

export interface LifecycleTiming {
  /** Length of one lifecycle step. */
  stepMs: number;
  /** How long a float swap waits for a deposit before `overdue`. */
  floatWindowMs: number;
}

export function isLifecycleStep(status: ProviderStatus): status is LifecycleStep {
  return (LIFECYCLE_STEPS as readonly string[]).includes(status);
}

/** Only a swap still waiting takes a deposit. */
export function awaitsDeposit(tx: SandboxTransaction): boolean {
  return tx.status === 'new' || tx.status === 'waiting';
}

/** Statuses a swap only reaches with money received; forcing one needs a deposit on record. */
export function impliesDeposit(status: ProviderStatus): boolean {
  return isLifecycleStep(status) || status === 'refunded';
}

/**
 * Where a deposit leaves a swap that cannot go on: a fixed swap expires when the deposit is short
 * or late, a float swap goes overdue when it is late. Null: the lifecycle starts.
 */
export function missedDeposit(
  tx: SandboxTransaction,
  deposit: Deposit,
  late: boolean,
): 'expired' | 'overdue' | null {
  const short = deposit.amount.lt(tx.amountExpectedFrom);
  const pastDeadline = late || (tx.payTillMs !== null && deposit.atMs > tx.payTillMs);
  if (tx.type === 'fixed' && (short || pastDeadline)) {
    return 'expired';
  }
  return tx.type === 'float' && late ? 'overdue' : null;
}

/**
 * The sandbox's own clock: deadlines for swaps still waiting, one lifecycle step per `stepMs` for
 * swaps with a deposit. Computed on read, so no timers run and tests see exact step times.
 */
export class LifecycleClock {
  constructor(private readonly timing: LifecycleTiming) {}

  /** Brings a transaction up to `now`. */
  advance(tx: SandboxTransaction, now: number): SandboxTransaction {
    if (tx.status === 'new' && tx.clock === null) {
      const windowEndMs = tx.createdAtMs + this.timing.floatWindowMs;
      if (tx.payTillMs !== null && now > tx.payTillMs) {
        tx.status = 'expired';
        tx.statusSinceMs = tx.payTillMs;
      } else if (tx.type === 'float' && now > windowEndMs) {
        tx.status = 'overdue';
        tx.statusSinceMs = windowEndMs;
      }
      return tx;
    }
    if (tx.clock === null) {
      return tx;
    }
    const from = LIFECYCLE_STEPS.indexOf(tx.clock.step);
    const elapsed = Math.floor((now - tx.clock.sinceMs) / this.timing.stepMs);
    const index = Math.min(LIFECYCLE_STEPS.length - 1, from + elapsed);
    for (let i = from + 1; i <= index; i++) {
      const enteredAt = tx.clock.sinceMs + (i - from) * this.timing.stepMs;
      // The payout is broadcast on entering `sending` (or at once when a step was skipped).
      if (LIFECYCLE_STEPS[i] === 'sending' || LIFECYCLE_STEPS[i] === 'finished') {
        tx.moneySentMs ??= enteredAt;
      }
    }
    const step = LIFECYCLE_STEPS[index] ?? 'finished';
    if (index > from) {
      tx.statusSinceMs = tx.clock.sinceMs + (index - from) * this.timing.stepMs;
    }
    tx.status = step;
    if (step === 'finished') {
      tx.clock = null;
    }
    return tx;
  }

  /**
   * Puts a transaction in `status` at `now`: a lifecycle step before `finished` runs on from
   * there; any other status is frozen until something else is forced.
   */
  enter(tx: SandboxTransaction, status: ProviderStatus, now: number): SandboxTransaction {
    tx.status = status;
    tx.statusSinceMs = now;
    if (status === 'sending' || status === 'finished') {
      tx.moneySentMs ??= now;
    }
    tx.clock =
      isLifecycleStep(status) && status !== 'finished' ? { step: status, sinceMs: now } : null;
    return tx;
  }
}
