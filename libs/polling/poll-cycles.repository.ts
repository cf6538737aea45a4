import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BatchStatement } from '#app/persistence';

/** One refresh cycle of a lane, as every poller replica sees it. */
export interface PollCycle {
  number: number;
  startedAt: Date;
  /** The listing asks for transactions created at or after this; null: nothing to list. */
  since: Date | null;
  /** Every page of the listing was answered (or its deadline passed). */
  listingOver: boolean;
}

/** A claimed page of a cycle's listing, answered; `last` when it ended the listing. */
export interface PageDone {
  lane: string;
  cycle: number;
  page: number;
  last: boolean;
}

interface CycleRow {
  number: string;
  started_at: Date;
  since: Date | null;
  listing_over: boolean;
}

/** The listing is over once its end is known and every page claimed was answered. */
const LISTING_OVER = `(end_page IS NOT NULL AND pages_done >= next_page)`;

/**
 * A new cycle is due on the lane's row `c` (`$2` the interval, `$3` the deadline): the interval
 * has passed since the last began, and its listing is over or past the deadline.
 */
function due(c: string): string {
  return `${c}.started_at + $2 * interval '1 millisecond' <= now()
      AND ((${c}.end_page IS NOT NULL AND ${c}.pages_done >= ${c}.next_page)
           OR ${c}.started_at + $3 * interval '1 millisecond' <= now())`;
}

function toCycle(row: CycleRow): PollCycle {
  return {
    number: Number(row.number),
    startedAt: row.started_at,
    since: row.since,
    listingOver: row.listing_over,
  };
}

/**
 * The refresh cycles of the pollers (`poll_cycles`, one row per lane), the only writer of that
 * table; plain SQL, each step one statement on one locked row. A cycle lists the provider's
 * active transactions page by page: each page is claimed by exactly one poller, so no page is
 * asked twice in a cycle, and the pollers share them.
 */
@Injectable()
export class PollCyclesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The lane's current cycle, a new one when `intervalMs` has passed since the last began and
   * its listing is over (or has run past `deadlineMs`, as when a poller died holding a page).
   * `since` is asked only when a new cycle is due, so a tick between cycles is one statement.
   */
  async current(
    lane: string,
    intervalMs: number,
    deadlineMs: number,
    since: () => Promise<Date | null>,
  ): Promise<PollCycle> {
    const existing = await this.read(lane, intervalMs, deadlineMs);
    if (existing && !existing.due) {
      return toCycle(existing);
    }
    const start = await since();
    const [row] = await this.dataSource.query<CycleRow[]>(
      `INSERT INTO poll_cycles AS c (lane, number, started_at, since, end_page)
       VALUES ($1, 1, now(), $4, CASE WHEN $4::timestamptz IS NULL THEN -1 END)
       ON CONFLICT (lane) DO UPDATE
          SET number = c.number + 1, started_at = now(), since = $4, next_page = 0,
              end_page = CASE WHEN $4::timestamptz IS NULL THEN -1 END, pages_done = 0
        WHERE ${due('c')}
       RETURNING number, started_at, since, ${LISTING_OVER} AS listing_over`,
      [lane, intervalMs, deadlineMs, start],
    );
    // Another poller started it first: read the cycle it started.
    const cycle = row ?? (await this.read(lane, intervalMs, deadlineMs));
    if (!cycle) {
      throw new Error(`poll_cycles has no row for lane ${lane} after starting it`);
    }
    return toCycle(cycle);
  }

  /** The next page of the cycle's listing for this poller to ask; null when none is left. */
  async claimPage(lane: string, cycle: number, deadlineMs: number): Promise<number | null> {
    const result = await this.dataSource.query<[{ page: number }[], number]>(
      `UPDATE poll_cycles SET next_page = next_page + 1
        WHERE lane = $1 AND number = $2 AND (end_page IS NULL OR next_page <= end_page)
          AND started_at + $3 * interval '1 millisecond' > now()
       RETURNING next_page - 1 AS page`,
      [lane, cycle, deadlineMs],
    );
    // TypeORM answers `UPDATE … RETURNING` as [rows, count].
    const [row] = result[0];
    return row ? Number(row.page) : null;
  }

  /**
   * A claimed page was answered. `last`: it was the end of the listing (a short page, or one
   * whose answer failed: the pages after it are then not asked in this cycle).
   */
  async pageDone(page: PageDone): Promise<void> {
    const statement = new BatchStatement();
    this.pageDoneWithin(statement, page);
    await statement.run(this.dataSource, 'SELECT 1');
  }

  /**
   * `pageDone` as a step of the statement that writes the page's results back, so a page counts
   * as answered exactly when what it reported is stored.
   */
  pageDoneWithin(statement: BatchStatement, { lane, cycle, page, last }: PageDone): void {
    const at = statement.param(page);
    statement.step(
      'page_done',
      `UPDATE poll_cycles SET pages_done = pages_done + 1,
              end_page = CASE WHEN ${statement.param(last)}::boolean
                              THEN LEAST(coalesce(end_page, ${at}::integer), ${at}::integer)
                              ELSE end_page END
        WHERE lane = ${statement.param(lane)} AND number = ${statement.param(cycle)}
       RETURNING lane`,
    );
  }

  async isListingOver(lane: string, cycle: number, deadlineMs: number): Promise<boolean> {
    const [row] = await this.dataSource.query<{ over: boolean }[]>(
      `SELECT number <> $2 OR ${LISTING_OVER}
              OR started_at + $3 * interval '1 millisecond' <= now() AS over
         FROM poll_cycles WHERE lane = $1`,
      [lane, cycle, deadlineMs],
    );
    return row?.over ?? true;
  }

  /** The lane's cycle as it stands (`$2` the interval, `$3` the deadline), and whether a new one is due. */
  private async read(
    lane: string,
    intervalMs: number,
    deadlineMs: number,
  ): Promise<(CycleRow & { due: boolean }) | undefined> {
    const [row] = await this.dataSource.query<(CycleRow & { due: boolean })[]>(
      `SELECT number, started_at, since,
              ${LISTING_OVER} OR started_at + $3 * interval '1 millisecond' <= now() AS listing_over,
              ${due('poll_cycles')} AS due
         FROM poll_cycles WHERE lane = $1`,
      [lane, intervalMs, deadlineMs],
    );
    return row;
  }
}
