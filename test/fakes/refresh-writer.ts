import type { RefreshBatch, RefreshWriter } from '#app/polling';
import { recordedEvent } from '../factories/events.js';
import type { FakeEarnings } from './earnings.js';
import type { FakeEventRecorder } from './event-recorder.js';
import type { FakePollCycles } from './poll-cycles.js';
import type { FakeSwaps } from './swaps.js';

function date(iso: string | null): Date | null {
  return iso === null ? null : new Date(iso);
}

/**
 * A page of refreshes stored in the fakes with the statement's rules: a change is written only
 * while the swap's status is the one read and, under a lease, the lease is still the owner's;
 * only a written change records its history, event and earnings.
 */
export class FakeRefreshWriter implements Pick<RefreshWriter, 'write'> {
  constructor(
    private readonly swaps: FakeSwaps,
    private readonly events: FakeEventRecorder,
    private readonly earnings: FakeEarnings,
    private readonly cycles: FakePollCycles,
  ) {}

  async write(batch: RefreshBatch): Promise<Set<string>> {
    const { owner } = batch;
    const written = new Set<string>();
    for (const { swap, update, event, earnings } of batch.changes) {
      const row = this.swaps.row(swap.id);
      if (row.swap.status !== swap.status || (owner !== null && row.swap.leaseOwner !== owner)) {
        continue;
      }
      const f = update.fields;
      Object.assign(row.swap, {
        ...f,
        status: update.status,
        moneyReceivedAt: date(f.moneyReceivedAt),
        moneySentAt: date(f.moneySentAt),
        leaseOwner: null,
      });
      if (update.transition) {
        row.events.push({ from: update.transition.from, to: update.transition.to });
      }
      if (event) {
        this.events.recorded.push(recordedEvent({ type: 'swap.status_changed', ...event }));
      }
      if (earnings) {
        this.earnings.pending.push(earnings);
      }
      row.seen = true;
      written.add(swap.id);
    }
    for (const id of batch.seen) {
      const row = this.swaps.row(id);
      row.seen = true;
      if (owner !== null && row.swap.leaseOwner === owner) {
        row.swap.leaseOwner = null;
        row.dueInMs = 0;
      }
    }
    if (owner !== null && batch.unreported) {
      await this.swaps.reschedule(owner, batch.unreported.ids, batch.unreported.delayMs);
    }
    if (batch.page) {
      await this.cycles.pageDone(batch.page);
    }
    return written;
  }
}
