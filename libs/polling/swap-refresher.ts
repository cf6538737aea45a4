import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Decimal } from 'decimal.js';
import { DataSource } from 'typeorm';
import type { SwapStatus } from '#app/domain';
import { EventRecorder } from '#app/events';
import type { ProviderTransaction } from '#app/provider';
import { SwapsRepository, toSwapView, type PolledUpdate, type RefreshedSwap } from '#app/swaps';
import { EarningsRepository, type PendingEarnings } from '#app/earnings';
import { changesSwap, planSettlement } from './settlement-plan.js';

/** What applying one provider report to one swap did. */
export type RefreshOutcome =
  /** Nothing to write: the swap is as the provider reports it. */
  | { kind: 'unchanged' }
  /** The report breaks the transition graph and was ignored. */
  | { kind: 'violation'; from: SwapStatus; to: SwapStatus }
  /** The new state is stored (and the lease, if any, given back). */
  | { kind: 'written'; from: SwapStatus; to: SwapStatus }
  /** Someone else changed the swap first, or the lease ran out: nothing was written. */
  | { kind: 'superseded' };

/**
 * Applies a provider report to a stored swap: the status, the settlement fields, the history
 * entry and the partner's `swap.status_changed` event, and for a live swap that just finished its earnings, in one transaction. The poller and the
 * test helpers (which refresh a swap at once) share it, so a swap moves by the same rules
 * whoever asked the provider.
 */
@Injectable()
export class SwapRefresher {
  private readonly logger = new Logger(SwapRefresher.name);

  constructor(
    private readonly swaps: SwapsRepository,
    private readonly earnings: EarningsRepository,
    private readonly events: EventRecorder,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * `owner` is the lease the swap was claimed under, null for a swap read without one; a write
   * under a lease happens only while the lease holds.
   */
  async apply(
    owner: string | null,
    swap: RefreshedSwap,
    tx: ProviderTransaction,
  ): Promise<RefreshOutcome> {
    const plan = planSettlement(swap, tx);
    if (plan.kind === 'violation') {
      this.logger.warn(
        { swapId: swap.id, orgId: swap.organizationId, from: plan.from, to: plan.to },
        'provider reported a transition the graph forbids; ignored',
      );
      return plan;
    }
    if (!changesSwap(swap, plan)) {
      return { kind: 'unchanged' };
    }
    const changed = plan.to !== plan.from;
    const update: PolledUpdate = {
      status: plan.to,
      fields: plan.fields,
      transition: changed ? { from: plan.from, to: plan.to, providerStatus: tx.status } : null,
    };
    const earnings =
      changed && plan.to === 'finished'
        ? pendingEarnings(swap, plan.fields.amountActualFrom)
        : null;
    const written = await this.dataSource.transaction(async (manager) => {
      const stored = await this.swaps.applyPolledUpdate(manager, owner, swap, update);
      if (!stored) {
        return false;
      }
      if (changed) {
        await this.events.swapStatusChanged(
          manager,
          swap.organizationId,
          toSwapView(stored),
          plan.from,
        );
      }
      if (earnings) {
        await this.earnings.addPendingWithin(manager, earnings);
      }
      return true;
    });
    if (!written) {
      return { kind: 'superseded' };
    }
    if (changed) {
      this.logger.log(
        { swapId: swap.id, orgId: swap.organizationId, from: plan.from, to: plan.to },
        'swap status changed',
      );
    }
    return { kind: 'written', from: plan.from, to: plan.to };
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
