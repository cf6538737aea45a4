import type {
  BookingResult,
  EarningsRepository,
  NewEarningsEntry,
  PendingEarnings,
} from '#app/earnings';

/**
 * The earnings queue: what write-backs added (kept, `FakeRefreshWriter` adds them), what was
 * booked or given back.
 */
export class FakeEarnings implements Pick<
  EarningsRepository,
  'claimPending' | 'bookPending' | 'releasePending'
> {
  readonly pending: PendingEarnings[] = [];
  readonly booked: { owner: string; swapId: string; usdPrice: string }[] = [];
  readonly released: string[] = [];
  /** How many times the queue was claimed from. */
  claims = 0;
  private claimed = 0;

  claimPending(): Promise<PendingEarnings[]> {
    this.claims += 1;
    const unclaimed = this.pending.slice(this.claimed);
    this.claimed = this.pending.length;
    return Promise.resolve(unclaimed);
  }

  bookPending(owner: string, entry: NewEarningsEntry): Promise<BookingResult> {
    this.booked.push({ owner, swapId: entry.swapId, usdPrice: entry.usdPrice });
    return Promise.resolve({ earningsBooked: true, payoutCreated: false });
  }

  releasePending(_owner: string, swapIds: string[]): Promise<void> {
    this.released.push(...swapIds);
    return Promise.resolve();
  }
}
