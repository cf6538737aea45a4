import type { PageDone, PollCycle, PollCyclesRepository } from '#app/polling';

/**
 * One cycle per lane, its listing still `pending` or already `over`; the pages are claimed in
 * order until one is answered as the last.
 */
export class FakePollCycles implements Pick<
  PollCyclesRepository,
  'current' | 'claimPage' | 'pageDone' | 'isListingOver'
> {
  readonly pagesDone: { lane: string; page: number; last: boolean }[] = [];
  private nextPage = 0;
  private endPage: number | null = null;

  constructor(private readonly listing: 'pending' | 'over') {}

  async current(
    _lane: string,
    _intervalMs: number,
    _deadlineMs: number,
    since: () => Promise<Date | null>,
  ): Promise<PollCycle> {
    return {
      number: 1,
      startedAt: new Date(),
      since: await since(),
      listingOver: this.listing === 'over',
    };
  }

  claimPage(): Promise<number | null> {
    if (this.endPage !== null && this.nextPage > this.endPage) {
      return Promise.resolve(null);
    }
    return Promise.resolve(this.nextPage++);
  }

  pageDone({ lane, page, last }: PageDone): Promise<void> {
    this.pagesDone.push({ lane, page, last });
    if (last) {
      this.endPage = Math.min(this.endPage ?? page, page);
    }
    return Promise.resolve();
  }

  isListingOver(): Promise<boolean> {
    return Promise.resolve(this.listing === 'over');
  }
}
