import {
  TERMINAL_STATUSES,
  type OwnerScope,
  type ProviderName,
  type SwapStatus,
} from '#app/domain';
import type { SwapEntity } from '#app/persistence';
import { buildSwap, type PollScope, type RefreshedSwap, type SwapsRepository } from '#app/swaps';
import { refreshedSwap } from '../factories/swap-entities.js';

export interface SwapRow {
  swap: SwapEntity;
  /** The fee of the swap's organization, as a claim joins it. */
  feePercent: string;
  /** The provider confirmed it in this cycle (`last_seen_at`). */
  seen: boolean;
  /** Set by a reschedule: due again this long after it. */
  dueInMs: number | null;
  /** Its `swap_events`. */
  events: { from: SwapStatus; to: SwapStatus }[];
}

/**
 * `swaps` in memory, with the repository's rules: what a creation inserts, and the poller's
 * leases (the entity's `leaseOwner`) and claims; `FakeRefreshWriter` writes refreshes back.
 */
export class FakeSwaps implements Pick<
  SwapsRepository,
  | 'insert'
  | 'findByIdForOrg'
  | 'isHeld'
  | 'oldestActiveCreatedAt'
  | 'findActiveByProviderIds'
  | 'claimUnseen'
  | 'reschedule'
> {
  readonly rows: SwapRow[] = [];
  readonly reschedules: { owner: string; ids: string[]; delayMs: number }[] = [];
  /** The next insert fails with this, as when Postgres goes away after the provider answered. */
  insertFailure: Error | null = null;

  /** The stored swaps, oldest first. */
  get stored(): SwapEntity[] {
    return this.rows.map((r) => r.swap);
  }

  add(swap: SwapEntity, feePercent = '0.5'): void {
    this.rows.push({ swap, feePercent, seen: false, dueInMs: null, events: [] });
  }

  row(id: string): SwapRow {
    const row = this.rows.find((r) => r.swap.id === id);
    if (!row) {
      throw new Error(`no swap ${id}`);
    }
    return row;
  }

  insert(_manager: unknown, swap: SwapEntity): Promise<void> {
    const failure = this.insertFailure;
    this.insertFailure = null;
    if (failure) {
      return Promise.reject(failure);
    }
    this.add(swap);
    return Promise.resolve();
  }

  findByIdForOrg(id: string, owner: OwnerScope): Promise<SwapEntity | null> {
    const swap = this.stored.find(
      (s) =>
        s.id === id && s.organizationId === owner.organizationId && s.livemode === owner.livemode,
    );
    return Promise.resolve(swap ? buildSwap(swap) : null);
  }

  isHeld(
    provider: ProviderName,
    providerTransactionId: string,
    livemode: boolean,
  ): Promise<boolean> {
    return Promise.resolve(
      this.stored.some(
        (s) =>
          s.provider === provider &&
          s.providerTransactionId === providerTransactionId &&
          s.livemode === livemode,
      ),
    );
  }

  oldestActiveCreatedAt(scope: PollScope): Promise<Date | null> {
    const created = this.active(scope).map((r) => r.swap.createdAt.getTime());
    return Promise.resolve(created.length > 0 ? new Date(Math.min(...created)) : null);
  }

  findActiveByProviderIds(ids: string[], scope: PollScope): Promise<RefreshedSwap[]> {
    return Promise.resolve(
      this.active(scope)
        .filter((r) => ids.includes(r.swap.providerTransactionId ?? ''))
        .map(refreshed),
    );
  }

  claimUnseen(owner: string, scope: PollScope, limit: number): Promise<RefreshedSwap[]> {
    const due = this.active(scope)
      .filter((r) => !r.seen && r.swap.leaseOwner === null && r.dueInMs === null)
      .slice(0, limit);
    for (const row of due) {
      row.swap.leaseOwner = owner;
    }
    return Promise.resolve(due.map(refreshed));
  }

  reschedule(owner: string, ids: string[], delayMs: number): Promise<void> {
    if (ids.length > 0) {
      this.reschedules.push({ owner, ids: [...ids], delayMs });
    }
    for (const row of this.rows.filter((r) => ids.includes(r.swap.id))) {
      if (row.swap.leaseOwner === owner) {
        row.swap.leaseOwner = null;
        row.dueInMs = delayMs;
      }
    }
    return Promise.resolve();
  }

  private active(scope: PollScope): SwapRow[] {
    return this.rows.filter(
      (r) =>
        r.swap.provider === scope.provider &&
        r.swap.livemode === scope.livemode &&
        !TERMINAL_STATUSES.includes(r.swap.status),
    );
  }
}

function refreshed(row: SwapRow): RefreshedSwap {
  return refreshedSwap(row.swap, row.feePercent);
}
