import { Inject, Injectable, Logger } from '@nestjs/common';
import { feeInUsd, SWAP_STATUSES, TERMINAL_STATUSES, type SwapStatus } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import {
  LIQUIDITY_PROVIDERS,
  LiquidityProviders,
  MAX_IDS_PER_TRANSACTIONS_CALL,
  type LiquidityProvider,
  type ProviderTransaction,
} from '#app/provider';
import { SwapsRepository, type RefreshedSwap } from '#app/swaps';
import { EarningsRepository, type PendingEarnings } from '#app/earnings';
import { PollCyclesRepository, type PollCycle } from './poll-cycles.repository.js';
import { PollMetrics } from './poll-metrics.js';
import { SwapRefresher } from './swap-refresher.js';
import { UsdPricer } from './usd-pricer.js';

/** Cadence and lease of the poller. */
export interface PollingOptions {
  /** Every non-terminal live swap, `hold` included, is refreshed once per interval [30 s]. */
  pollIntervalMs: number;
  /**
   * The same for test swaps [2 s]: partners see a test swap's lifecycle in seconds
   * (docs/decisions.md, "Test mode").
   */
  testPollIntervalMs: number;
  leaseMs: number;
  /** Swaps claimed per batch when they are asked for by id. */
  batchSize: number;
}

export const POLLING_OPTIONS = Symbol('POLLING_OPTIONS');

/** One mode's swaps: polled from that mode's provider, at that mode's interval. */
export interface PollLane {
  name: 'live' | 'test';
  livemode: boolean;
  provider: LiquidityProvider;
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
 * The status poller's work, per lane (live, and test where there is a test provider), in cycles of
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
  /** The lanes this poller serves: live always, test when a test provider is configured. */
  readonly lanes: PollLane[];

  constructor(
    private readonly swaps: SwapsRepository,
    private readonly cycles: PollCyclesRepository,
    private readonly earnings: EarningsRepository,
    private readonly refresher: SwapRefresher,
    private readonly pricer: UsdPricer,
    private readonly metrics: PollMetrics,
    @Inject(LIQUIDITY_PROVIDERS) providers: LiquidityProviders,
    @Inject(POLLING_OPTIONS) private readonly options: PollingOptions,
  ) {
    this.lanes = [
      {
        name: 'live',
        livemode: true,
        provider: providers.live,
        intervalMs: options.pollIntervalMs,
      },
    ];
    if (providers.test) {
      this.lanes.push({
        name: 'test',
        livemode: false,
        provider: providers.test,
        intervalMs: options.testPollIntervalMs,
      });
    }
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
    const oldest = await this.swaps.oldestActiveCreatedAt(lane.livemode);
    const since = oldest === null ? null : new Date(oldest.getTime() - CLOCK_SKEW_MS);
    const cycle = await this.cycles.current(
      lane.name,
      lane.intervalMs,
      this.options.leaseMs,
      since,
    );
    if (!cycle.listingOver) {
      await this.listActive(lane, cycle, report, keepGoing);
    }
    if (await this.cycles.isListingOver(lane.name, cycle.number, this.options.leaseMs)) {
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
    const lagMs = await this.swaps.oldestDueLagMs(lane.livemode, lane.intervalMs);
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
      const listed = await this.fetch(() =>
        lane.provider.getTransactions({
          statuses: ACTIVE_STATUSES,
          since: cycle.since?.toISOString(),
          limit: LIST_PAGE_SIZE,
          offset: page * LIST_PAGE_SIZE,
        }),
      );
      report.calls += 1;
      if (listed === null) {
        // The rest of this cycle's swaps are asked for by id, or wait for the next cycle.
        await this.cycles.pageDone(lane.name, cycle.number, page, true);
        return;
      }
      this.metrics.batchSize.observe(listed.length);
      report.refreshed += await this.applyListed(lane, listed);
      await this.cycles.pageDone(lane.name, cycle.number, page, listed.length < LIST_PAGE_SIZE);
    }
  }

  /** Applies one page of the listing: changes are written, the rest is marked as confirmed. */
  private async applyListed(lane: PollLane, listed: ProviderTransaction[]): Promise<number> {
    const reports = new Map(listed.map((tx) => [tx.id, tx]));
    const swaps = await this.swaps.findActiveByProviderIds([...reports.keys()], lane.livemode);
    const unchanged: string[] = [];
    let refreshed = 0;
    for (const swap of swaps) {
      const outcome = await this.apply(lane, null, swap, reports.get(swap.providerTransactionId));
      if (outcome === 'unchanged') {
        unchanged.push(swap.id);
      } else if (outcome === 'written') {
        refreshed += 1;
      }
    }
    for (const lagMs of await this.swaps.markSeen(unchanged, lane.intervalMs)) {
      this.metrics.lag.observe(lagMs / 1000);
    }
    this.metrics.polled.inc(unchanged.length);
    return refreshed + unchanged.length;
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
        lane.livemode,
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
          const reports = await this.fetch(() =>
            lane.provider.getTransactions({ ids: group.map((s) => s.providerTransactionId) }),
          );
          report.calls += 1;
          if (reports === null) {
            // The provider failed: the rest of the batch waits an interval, leaving the upstream
            // budget to partner traffic.
            await this.swaps.reschedule(owner, [...pending], lane.intervalMs);
            pending.clear();
            return;
          }
          const byId = new Map(reports.map((tx) => [tx.id, tx]));
          const unchanged: string[] = [];
          // Each swap's write-back is its own transaction: the group's run side by side.
          await Promise.all(
            group.map(async (swap) => {
              this.metrics.lag.observe(swap.lagMs / 1000);
              const outcome = await this.apply(
                lane,
                owner,
                swap,
                byId.get(swap.providerTransactionId),
              );
              if (outcome === 'unchanged') {
                unchanged.push(swap.id);
              }
              if (outcome !== 'dropped') {
                report.refreshed += 1;
              }
              pending.delete(swap.id);
            }),
          );
          await this.swaps.markSeen(unchanged, lane.intervalMs);
          await this.swaps.reschedule(owner, unchanged, 0);
          this.metrics.polled.inc(unchanged.length);
          // The lease covers what is left, however long the budget makes the batch take.
          await this.swaps.extendLeases(owner, [...pending], this.options.leaseMs);
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

  /** One provider call; null when the provider failed (counted by the adapter and logged). */
  private async fetch(
    call: () => Promise<ProviderTransaction[]>,
  ): Promise<ProviderTransaction[] | null> {
    try {
      return await call();
    } catch (error: unknown) {
      if (!isUpstreamFailure(error)) {
        throw error;
      }
      this.logger.warn({ code: error.code }, 'provider failed; retried later');
      return null;
    }
  }

  /**
   * Applies one report to one swap. `owner` is the lease the swap was claimed under (asked by
   * id), null for a listed swap. `unchanged`: nothing to write (the caller marks it confirmed
   * and gives its lease back); `written`: its new state is stored and its lease given back;
   * `dropped`: the report could not be applied.
   */
  private async apply(
    lane: PollLane,
    owner: string | null,
    swap: RefreshedSwap,
    tx: ProviderTransaction | undefined,
  ): Promise<'unchanged' | 'written' | 'dropped'> {
    if (!tx) {
      this.metrics.unknownTransactions.inc();
      this.logger.warn(
        { swapId: swap.id, orgId: swap.organizationId, providerId: swap.providerTransactionId },
        'provider did not report the transaction',
      );
      if (owner !== null) {
        await this.swaps.reschedule(owner, [swap.id], lane.intervalMs);
      }
      return 'dropped';
    }
    const outcome = await this.refresher.apply(owner, swap, tx);
    switch (outcome.kind) {
      case 'violation':
        this.metrics.violations.inc({ from: outcome.from, to: outcome.to });
        return 'unchanged';
      case 'unchanged':
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
