import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectConfig, POLLING_CONFIG, type PollingConfig } from '#app/config';
import { feeInUsd, SWAP_STATUSES, TERMINAL_STATUSES, type SwapStatus } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import {
  MAX_IDS_PER_TRANSACTIONS_CALL,
  PROVIDER_FLEET,
  type LiquidityProvider,
  type ProviderFleet,
  type ProviderTransaction,
} from '#app/provider';
import { isBudgetRefusal } from '#app/routing';
import { SwapsRepository, type PollScope, type RefreshedSwap } from '#app/swaps';
import { EarningsRepository, type PendingEarnings } from '#app/earnings';
import { PollCyclesRepository, type PageDone, type PollCycle } from './poll-cycles.repository.js';
import { PollMetrics } from './poll-metrics.js';
import { SwapRefresher, type RefreshOutcome, type ReportedSwap } from './swap-refresher.js';
import { UsdPricer } from './usd-pricer.js';

/**
 * One provider's swaps in one mode: polled from that provider, under its own budget, at that
 * mode's interval (docs/decisions.md, "Liquidity routing across providers"). Changelly's lanes
 * keep the names they had before routing (`live`, `test`), so their cycles carry on.
 */
export interface PollLane extends PollScope {
  name: string;
  adapter: LiquidityProvider;
  intervalMs: number;
}

/** What one tick did. */
export interface PollReport {
  /** Swaps whose status the provider confirmed (listed or asked for by id). */
  refreshed: number;
  /** Provider calls made to refresh them. */
  calls: number;
}

/** The statuses the listing asks for: every one that may still change. */
const ACTIVE_STATUSES: SwapStatus[] = SWAP_STATUSES.filter((s) => !TERMINAL_STATUSES.includes(s));
const LIST_PAGE_SIZE = 100;
/** The provider's clock may run a little apart from ours: the listing starts this much earlier. */
const CLOCK_SKEW_MS = 5 * 60_000;
const EARNINGS_BATCH = 100;

/**
 * An upstream failure (outage, limit, bad answer) is retried later; anything else is a bug or a
 * database failure and propagates.
 */
function isUpstreamFailure(error: unknown): error is AppError {
  return (
    error instanceof AppError &&
    (error.type === 'upstream_error' || error.code === ErrorCode.UpstreamRateLimited)
  );
}

function chunk<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) =>
    items.slice(i * size, (i + 1) * size),
  );
}

/**
 * The status poller's work, per lane (a provider in a mode), in cycles of
 * one interval shared by every poller replica (docs/decisions.md, "Status poller: cycles, pages,
 * leases and failure fates"):
 *
 * 1. **List** the provider's active transactions (every status that may still change) created
 *    since the lane's oldest active swap, 100 per call; each page is claimed by one poller, so no
 *    page is asked twice in a cycle. What a page reports is applied at once.
 * 2. **Ask by id** (10 per call, under a lease) for the active swaps the listing did not show:
 *    they left the active statuses (finished, failed, …) or slipped between pages.
 * 3. **Book earnings** of live swaps that finished, at a price per currency cached for a minute;
 *    a status write-back never waits on pricing (docs/decisions.md, "USD valuation of earnings").
 */
@Injectable()
export class SwapPollingService {
  private readonly logger = new Logger(SwapPollingService.name);
  /**
   * The lanes this poller serves: each provider's live swaps, and its test swaps where it has a
   * test endpoint. A provider operators took out of routing is still polled: its swaps go on.
   */
  readonly lanes: PollLane[];

  constructor(
    private readonly swaps: SwapsRepository,
    private readonly cycles: PollCyclesRepository,
    private readonly earnings: EarningsRepository,
    private readonly refresher: SwapRefresher,
    private readonly pricer: UsdPricer,
    private readonly metrics: PollMetrics,
    @Inject(PROVIDER_FLEET) fleet: ProviderFleet,
    @InjectConfig(POLLING_CONFIG) private readonly options: PollingConfig,
  ) {
    this.lanes = [true, false].flatMap((livemode) =>
      fleet.names.flatMap((provider): PollLane[] => {
        const adapter = fleet.find(provider, livemode);
        if (!adapter) {
          return [];
        }
        const mode = livemode ? 'live' : 'test';
        return [
          {
            name: provider === 'changelly' ? mode : `${mode}:${provider}`,
            provider,
            livemode,
            adapter,
            intervalMs: livemode ? options.pollIntervalMs : options.testPollIntervalMs,
          },
        ];
      }),
    );
  }

  /**
   * Does this poller's share of the lane's current cycle until nothing is left or `keepGoing`
   * says stop; a page or batch that was started is always finished.
   */
  async pollDue(
    lane: PollLane,
    owner: string,
    keepGoing: () => boolean = () => true,
  ): Promise<PollReport> {
    const report: PollReport = { refreshed: 0, calls: 0 };
    const cycle = await this.cycles.current(
      lane.name,
      lane.intervalMs,
      this.options.leaseMs,
      async () => {
        const oldest = await this.swaps.oldestActiveCreatedAt(lane);
        return oldest === null ? null : new Date(oldest.getTime() - CLOCK_SKEW_MS);
      },
    );
    if (!cycle.listingOver) {
      await this.listActive(lane, cycle, report, keepGoing);
    }
    if (
      cycle.listingOver ||
      (await this.cycles.isListingOver(lane.name, cycle.number, this.options.leaseMs))
    ) {
      await this.askUnseen(lane, owner, cycle, report, keepGoing);
    }
    if (lane.livemode) {
      await this.bookEarnings(owner, keepGoing);
    }
    return report;
  }

  /**
   * Refreshes the lane's lag gauge (its most overdue swap) and, for the live lane, the age of the
   * oldest earnings still to book: what the alerts on a stalled poller watch.
   */
  async measureLag(lane: PollLane): Promise<void> {
    const lagMs = await this.swaps.oldestDueLagMs(lane, lane.intervalMs);
    this.metrics.oldestDueLag.set({ lane: lane.name }, lagMs / 1000);
    if (lane.livemode) {
      this.metrics.earningsPendingAge.set((await this.earnings.oldestPendingAgeMs()) / 1000);
    }
  }

  private async listActive(
    lane: PollLane,
    cycle: PollCycle,
    report: PollReport,
    keepGoing: () => boolean,
  ): Promise<void> {
    while (keepGoing()) {
      const page = await this.cycles.claimPage(lane.name, cycle.number, this.options.leaseMs);
      if (page === null || cycle.since === null) {
        return;
      }
      const listed = await this.fetch(lane, () =>
        lane.adapter.getTransactions({
          ...(lane.adapter.listsByStatus ? { statuses: ACTIVE_STATUSES } : {}),
          since: cycle.since?.toISOString(),
          limit: LIST_PAGE_SIZE,
          offset: page * LIST_PAGE_SIZE,
        }),
      );
      report.calls += 1;
      const done = {
        lane: lane.name,
        cycle: cycle.number,
        page,
        last: listed === null || listed.length < LIST_PAGE_SIZE,
      };
      if (listed === null) {
        // The rest of this cycle's swaps are asked for by id, or wait for the next cycle.
        await this.cycles.pageDone(done);
        return;
      }
      this.metrics.batchSize.observe(listed.length);
      report.refreshed += await this.applyListed(lane, listed, done);
    }
  }

  /**
   * Applies one page of the listing: changes are written, the rest is marked as confirmed, and
   * the page is done, all in one statement.
   */
  private async applyListed(
    lane: PollLane,
    listed: ProviderTransaction[],
    page: PageDone,
  ): Promise<number> {
    const reports = new Map(listed.map((tx) => [tx.id, tx]));
    const swaps = await this.swaps.findActiveByProviderIds(
      [...reports.keys()],
      lane,
      lane.intervalMs,
    );
    const reported = swaps.flatMap((swap) => {
      const tx = reports.get(swap.providerTransactionId);
      return tx ? [{ swap, tx }] : [];
    });
    const outcomes = await this.refresher.applyPage(null, reported, { page });
    let refreshed = 0;
    outcomes.forEach((outcome, i) => {
      const fate = this.count(null, reported[i].swap, outcome);
      if (fate === 'unchanged') {
        this.metrics.lag.observe(reported[i].swap.lagMs / 1000);
      }
      if (fate !== 'dropped') {
        refreshed += 1;
      }
    });
    return refreshed;
  }

  /** Asks by id for the swaps this cycle's listing did not show, a leased batch at a time. */
  private async askUnseen(
    lane: PollLane,
    owner: string,
    cycle: PollCycle,
    report: PollReport,
    keepGoing: () => boolean,
  ): Promise<void> {
    while (keepGoing()) {
      const claimed = await this.swaps.claimUnseen(
        owner,
        lane,
        this.options.batchSize,
        this.options.leaseMs,
        cycle.startedAt,
      );
      if (claimed.length === 0) {
        return;
      }
      this.metrics.batchSize.observe(claimed.length);
      const pending = new Set(claimed.map((s) => s.id));
      try {
        for (const group of chunk(claimed, MAX_IDS_PER_TRANSACTIONS_CALL)) {
          const reports = await this.reportsOf(lane, group);
          report.calls += 1;
          if (reports === null) {
            // The provider failed: the rest of the batch waits an interval, leaving the upstream
            // budget to partner traffic.
            await this.swaps.reschedule(owner, [...pending], lane.intervalMs);
            pending.clear();
            return;
          }
          const byId = new Map(reports.map((tx) => [tx.id, tx]));
          const reported: ReportedSwap[] = [];
          const unreported: string[] = [];
          for (const swap of group) {
            this.metrics.lag.observe(swap.lagMs / 1000);
            const tx = byId.get(swap.providerTransactionId);
            if (tx) {
              reported.push({ swap, tx });
            } else {
              this.unreported(swap);
              unreported.push(swap.id);
            }
          }
          const inGroup = new Set(group.map((swap) => swap.id));
          // The group's write-back, its unreported swaps due an interval later, and the lease
          // kept on what is left however long the budget makes the batch take: one statement.
          const outcomes = await this.refresher.applyPage(owner, reported, {
            unreported: { ids: unreported, delayMs: lane.intervalMs },
            pending: {
              ids: [...pending].filter((id) => !inGroup.has(id)),
              leaseMs: this.options.leaseMs,
            },
          });
          for (const id of inGroup) {
            pending.delete(id);
          }
          outcomes.forEach((outcome, i) => {
            if (this.count(owner, reported[i].swap, outcome) !== 'dropped') {
              report.refreshed += 1;
            }
          });
        }
      } finally {
        // An unexpected failure must not leave leases behind until they expire.
        if (pending.size > 0) {
          await this.swaps.reschedule(owner, [...pending], 0).catch((error: unknown) => {
            this.logger.warn({ owner, err: String(error) }, 'could not release leases');
          });
        }
      }
    }
  }

  /** The provider's reports of these swaps, one call; null when the provider failed. */
  private reportsOf(lane: PollLane, swaps: RefreshedSwap[]): Promise<ProviderTransaction[] | null> {
    return this.fetch(lane, () =>
      lane.adapter.getTransactions({ ids: swaps.map((s) => s.providerTransactionId) }),
    );
  }

  /**
   * One provider call; null when the provider failed (counted by the adapter and logged) or our
   * budget for it had no slot (counted here: such a call never reaches the adapter's count).
   */
  private async fetch(
    lane: PollLane,
    call: () => Promise<ProviderTransaction[]>,
  ): Promise<ProviderTransaction[] | null> {
    try {
      return await call();
    } catch (error: unknown) {
      if (!isUpstreamFailure(error)) {
        throw error;
      }
      if (isBudgetRefusal(error)) {
        this.metrics.budgetExhausted(lane.provider, lane.livemode);
      }
      this.logger.warn(
        { lane: lane.name, provider: lane.provider, code: error.code },
        'provider failed; retried later',
      );
      return null;
    }
  }

  /** A swap the provider left out of its answer: counted, logged, asked again an interval later. */
  private unreported(swap: RefreshedSwap): void {
    this.metrics.unknownTransactions.inc();
    this.logger.warn(
      { swapId: swap.id, orgId: swap.organizationId, providerId: swap.providerTransactionId },
      'provider did not report the transaction',
    );
  }

  /**
   * Counts one refresh's outcome. `owner` is the lease the swap was claimed under (asked by id),
   * null for a listed swap. `unchanged`: it was marked confirmed (a report against the graph
   * too); `written`: its new state is stored; `dropped`: someone else wrote it first, or the
   * lease ran out.
   */
  private count(
    owner: string | null,
    swap: RefreshedSwap,
    outcome: RefreshOutcome,
  ): 'unchanged' | 'written' | 'dropped' {
    switch (outcome.kind) {
      case 'violation':
        this.metrics.violations.inc({ from: outcome.from, to: outcome.to });
        this.metrics.polled.inc();
        return 'unchanged';
      case 'unchanged':
        this.metrics.polled.inc();
        return 'unchanged';
      case 'superseded':
        if (owner !== null) {
          this.metrics.leaseLost.inc();
          this.logger.warn(
            { swapId: swap.id, owner },
            'lease lost before write-back; result dropped',
          );
        }
        return 'dropped';
      case 'written':
        this.metrics.polled.inc();
        if (outcome.to !== outcome.from) {
          this.metrics.transitions.inc({ status: outcome.to });
        }
        return 'written';
    }
  }

  /**
   * Books the earnings of finished swaps: one price per currency (cached a minute, so at most
   * one pricing call per currency per minute), then each entry in its own transaction. Entries
   * whose price cannot be read go back to the queue for the next tick.
   */
  private async bookEarnings(owner: string, keepGoing: () => boolean): Promise<void> {
    while (keepGoing()) {
      const queued = await this.earnings.claimPending(owner, EARNINGS_BATCH, this.options.leaseMs);
      if (queued.length === 0) {
        return;
      }
      const byCurrency = new Map<string, PendingEarnings[]>();
      for (const entry of queued) {
        byCurrency.set(entry.from, [...(byCurrency.get(entry.from) ?? []), entry]);
      }
      for (const [ticker, entries] of byCurrency) {
        const price = await this.price(ticker, entries[0].amountActualFrom);
        if (price === null) {
          await this.earnings.releasePending(
            owner,
            entries.map((e) => e.swapId),
          );
          continue;
        }
        for (const entry of entries) {
          const booked = await this.earnings.bookPending(owner, {
            organizationId: entry.organizationId,
            swapId: entry.swapId,
            feePercent: entry.feePercent,
            amountActualFrom: entry.amountActualFrom,
            from: entry.from,
            usdPrice: price,
            amountUsd: feeInUsd(entry.amountActualFrom, price, entry.feePercent),
          });
          if (booked.earningsBooked) {
            this.metrics.earningsBooked.inc();
          }
          if (booked.payoutCreated) {
            this.metrics.payoutsCreated.inc();
            this.logger.log({ orgId: entry.organizationId }, 'payout due');
          }
        }
      }
      if (queued.length < EARNINGS_BATCH) {
        return;
      }
    }
  }

  private async price(ticker: string, amount: string): Promise<string | null> {
    try {
      return await this.pricer.usdPrice(ticker, amount);
    } catch (error: unknown) {
      if (!isUpstreamFailure(error)) {
        throw error;
      }
      this.logger.warn(
        { ticker, code: error.code },
        'could not price finished swaps; retried next tick',
      );
      return null;
    }
  }
}
