import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { EarningsRepository, type PendingEarnings } from '#app/earnings';
import { EventRecorder, type StatusChange } from '#app/events';
import { BatchStatement } from '#app/persistence';
import { SwapsRepository, type PolledWrite } from '#app/swaps';
import { PollCyclesRepository, type PageDone } from './poll-cycles.repository.js';

/** One swap whose report changes what a partner reads, and what its write-back records. */
export interface RefreshChange extends PolledWrite {
  /** The status change to tell partners; null when only settlement fields changed. */
  event: StatusChange | null;
  /** What a live swap that just finished owes its organization. */
  earnings: PendingEarnings | null;
}

/** The poller's bookkeeping of a page, stored with the page's results. */
export interface RefreshBookkeeping {
  /** Claimed swaps the provider did not report: due again after `delayMs`. */
  unreported?: { ids: string[]; delayMs: number };
  /** Claimed swaps whose reports are still to come: their leases last `leaseMs` more. */
  pending?: { ids: string[]; leaseMs: number };
  /** The listing page the reports came from, answered. */
  page?: PageDone;
}

/** A page of refresh results to store. */
export interface RefreshBatch extends RefreshBookkeeping {
  /** The lease the swaps were claimed under; null for swaps read from the listing. */
  owner: string | null;
  changes: RefreshChange[];
  /** Swaps the provider confirmed as they are. */
  seen: string[];
}

/**
 * Stores a page of refresh results as one statement, each table's step written by its own
 * repository: the changed swaps (guarded by the status read and the lease), their history,
 * events and webhook deliveries, the earnings of those that finished, the swaps confirmed as
 * they are, and the poller's bookkeeping of the page. A page commits whole or not at all, so a
 * poller killed between pages loses nothing and a page read again records nothing twice.
 */
@Injectable()
export class RefreshWriter {
  constructor(
    private readonly swaps: SwapsRepository,
    private readonly events: EventRecorder,
    private readonly earnings: EarningsRepository,
    private readonly cycles: PollCyclesRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Answers the ids of the changed swaps written (a change not written was superseded). */
  async write(batch: RefreshBatch): Promise<Set<string>> {
    const statement = new BatchStatement();
    const written = this.swaps.writePolledWithin(statement, batch.owner, batch.changes);
    if (written !== null) {
      this.events.statusChangedWithin(
        statement,
        batch.changes.flatMap((change) => (change.event ? [change.event] : [])),
        written,
      );
      this.earnings.addPendingWithin(
        statement,
        batch.changes.flatMap((change) => (change.earnings ? [change.earnings] : [])),
        written,
      );
    }
    this.swaps.markSeenWithin(statement, batch.owner, batch.seen);
    if (batch.owner !== null) {
      const { unreported, pending } = batch;
      this.swaps.rescheduleWithin(
        statement,
        batch.owner,
        unreported?.ids ?? [],
        unreported?.delayMs ?? 0,
      );
      this.swaps.extendLeasesWithin(
        statement,
        batch.owner,
        pending?.ids ?? [],
        pending?.leaseMs ?? 0,
      );
    }
    if (batch.page) {
      this.cycles.pageDoneWithin(statement, batch.page);
    }
    if (statement.empty) {
      return new Set();
    }
    const rows = await statement.run<{ id: string }>(
      this.dataSource,
      written === null ? 'SELECT NULL::text AS id WHERE false' : `SELECT id FROM ${written}`,
    );
    return new Set(rows.map((row) => row.id));
  }
}
