import { Injectable, Logger } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import type { SwapStatus } from '#app/domain';
import type { PendingEarnings } from '#app/earnings';
import type { ProviderTransaction } from '#app/provider';
import { viewOfRow, type RefreshedSwap } from '#app/swaps';
import { RefreshWriter, type RefreshBookkeeping, type RefreshChange } from './refresh-writer.js';
import { changesSwap, planSettlement } from './settlement-plan.js';

/** What applying one provider report to one swap did. */
export type RefreshOutcome =
  /** Nothing to write: the swap is as the provider reports it (it is marked confirmed). */
  | { kind: 'unchanged' }
  /** The report breaks the transition graph and was ignored (the swap is marked confirmed). */
  | { kind: 'violation'; from: SwapStatus; to: SwapStatus }
  /** The new state is stored (and the lease, if any, given back). */
  | { kind: 'written'; from: SwapStatus; to: SwapStatus }
  /** Someone else changed the swap first, or the lease ran out: nothing was written. */
  | { kind: 'superseded' };

/** A swap and the provider's report of it. */
export interface ReportedSwap {
  swap: RefreshedSwap;
  tx: ProviderTransaction;
}

/**
 * Applies provider reports to stored swaps: the status, the settlement fields, the history
 * entry and the partner's `swap.status_changed` event, and for a live swap that just finished its
 * earnings; a page of reports is stored as one statement (`RefreshWriter`), with the poller's
 * bookkeeping of that page. The poller and the test helpers (which refresh a swap at once) share
 * it, so a swap moves by the same rules whoever asked the provider.
 */
@Injectable()
export class SwapRefresher {
  private readonly logger = new Logger(SwapRefresher.name);

  constructor(private readonly writer: RefreshWriter) {}

  /**
   * `owner` is the lease the swap was claimed under, null for a swap read without one; a write
   * under a lease happens only while the lease holds.
   */
  async apply(
    owner: string | null,
    swap: RefreshedSwap,
    tx: ProviderTransaction,
  ): Promise<RefreshOutcome> {
    const [outcome] = await this.applyPage(owner, [{ swap, tx }]);
    return outcome;
  }

  /**
   * Applies a page of reports (each swap once) with `bookkeeping`, in one statement; answers
   * each report's outcome, in order.
   */
  async applyPage(
    owner: string | null,
    reports: ReportedSwap[],
    bookkeeping: RefreshBookkeeping = {},
  ): Promise<RefreshOutcome[]> {
    const outcomes: (RefreshOutcome | RefreshChange)[] = [];
    const seen: string[] = [];
    for (const { swap, tx } of reports) {
      const plan = planSettlement(swap, tx);
      if (plan.kind === 'violation') {
        this.logger.warn(
          { swapId: swap.id, orgId: swap.organizationId, from: plan.from, to: plan.to },
          'provider reported a transition the graph forbids; ignored',
        );
        seen.push(swap.id);
        outcomes.push(plan);
      } else if (!changesSwap(swap, plan)) {
        seen.push(swap.id);
        outcomes.push({ kind: 'unchanged' });
      } else {
        const changed = plan.to !== plan.from;
        outcomes.push({
          swap,
          update: {
            status: plan.to,
            fields: plan.fields,
            transition: changed
              ? { from: plan.from, to: plan.to, providerStatus: tx.status }
              : null,
          },
          event: changed
            ? {
                organizationId: swap.organizationId,
                swap: viewOfRow({ ...swap, status: plan.to, ...plan.fields }),
                previousStatus: plan.from,
              }
            : null,
          earnings:
            changed && plan.to === 'finished'
              ? pendingEarnings(swap, plan.fields.amountActualFrom)
              : null,
        });
      }
    }
    const changes = outcomes.filter((o): o is RefreshChange => 'update' in o);
    const written = await this.writer.write({ owner, changes, seen, ...bookkeeping });
    return outcomes.map((outcome) =>
      'update' in outcome ? this.result(outcome, written) : outcome,
    );
  }

  private result(change: RefreshChange, written: Set<string>): RefreshOutcome {
    const { swap, update } = change;
    if (!written.has(swap.id)) {
      return { kind: 'superseded' };
    }
    if (update.status !== swap.status) {
      this.logger.log(
        { swapId: swap.id, orgId: swap.organizationId, from: swap.status, to: update.status },
        'swap status changed',
      );
    }
    return { kind: 'written', from: swap.status, to: update.status };
  }
}

/**
 * The earnings a swap that just finished owes its organization; none at a zero fee, none for a
 * test swap. A finished swap has received its deposit: the requested amount stands in only if
 * the provider never reported the actual one.
 */
function pendingEarnings(swap: RefreshedSwap, reported: string | null): PendingEarnings | null {
  if (!swap.livemode || new Decimal(swap.feePercent).isZero()) {
    return null;
  }
  return {
    swapId: swap.id,
    organizationId: swap.organizationId,
    feePercent: swap.feePercent,
    amountActualFrom: reported ?? swap.amountFrom,
    from: swap.from,
  };
}
