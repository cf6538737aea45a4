import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Decimal } from 'decimal.js';
import { DataSource } from 'typeorm';
import { feeInUsd, isTerminal } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import {
  LIQUIDITY_PROVIDER,
  MAX_IDS_PER_TRANSACTIONS_CALL,
  type LiquidityProvider,
  type ProviderTransaction,
} from '#app/provider';
import { SwapsRepository, type ClaimedSwap, type PolledUpdate } from '#app/swaps';
import {
  EarningsRepository,
  type BookingResult,
  type NewEarningsEntry,
} from './earnings.repository.js';
import { PollMetrics } from './poll-metrics.js';
import { planSettlement } from './settlement-plan.js';
import { UsdPricer } from './usd-pricer.js';

/** Cadence and lease of the poller. */
export interface PollingOptions {
  /** Refresh interval of every non-terminal swap, `hold` included [30 s]. */
  pollIntervalMs: number;
  leaseMs: number;
  /** Swaps claimed per batch. */
  batchSize: number;
}

export const POLLING_OPTIONS = Symbol('POLLING_OPTIONS');

const NOT_BOOKED: BookingResult = { earningsBooked: false, payoutCreated: false };

export interface BatchReport {
  claimed: number;
  /** Swaps whose report was written back. */
  polled: string[];
}

/**
 * An upstream failure (outage, limit, bad answer) is retried at the next interval; anything
 * else is a bug or a database failure and propagates.
 */
function isUpstreamFailure(error: unknown): error is AppError {
  return (
    error instanceof AppError &&
    (error.type === 'upstream_error' || error.code === ErrorCode.UpstreamRateLimited)
  );
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) {
    out.push(items.slice(i, i + size));
  }
  return out;
}

/**
 * One batch of the status poller: claim due swaps under a lease, ask the provider about them
 * (sequential calls of at most 10 ids, outside any transaction), validate each report against
 * the transition graph and write it back while the lease is still held.
 */
@Injectable()
export class SwapPollingService {
  private readonly logger = new Logger(SwapPollingService.name);

  constructor(
    private readonly swaps: SwapsRepository,
    private readonly earnings: EarningsRepository,
    private readonly pricer: UsdPricer,
    private readonly metrics: PollMetrics,
    @Inject(LIQUIDITY_PROVIDER) private readonly provider: LiquidityProvider,
    @Inject(POLLING_OPTIONS) private readonly options: PollingOptions,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * Claims and polls batches until nothing is due or `keepGoing` says stop; a batch that was
   * started is always finished, so a shutdown never abandons claimed swaps mid-way.
   */
  async pollDue(owner: string, keepGoing: () => boolean = () => true): Promise<BatchReport> {
    const report: BatchReport = { claimed: 0, polled: [] };
    do {
      const batch = await this.pollBatch(owner);
      report.claimed += batch.claimed;
      report.polled.push(...batch.polled);
      if (batch.claimed < this.options.batchSize) {
        break;
      }
    } while (keepGoing());
    return report;
  }

  async pollBatch(owner: string): Promise<BatchReport> {
    const claimed = await this.swaps.claimDueForPolling(
      owner,
      this.options.batchSize,
      this.options.leaseMs,
    );
    if (claimed.length === 0) {
      return { claimed: 0, polled: [] };
    }
    this.metrics.batchSize.observe(claimed.length);
    for (const swap of claimed) {
      this.metrics.lag.observe(swap.lagMs / 1000);
    }
    const polled: string[] = [];
    const pending = new Set(claimed.map((s) => s.id));
    try {
      for (const group of chunk(claimed, MAX_IDS_PER_TRANSACTIONS_CALL)) {
        const reports = await this.fetch(group);
        if (reports === null) {
          // The provider failed: the rest of the batch waits for the next interval, leaving
          // the upstream budget to partner traffic.
          await this.swaps.reschedule(owner, [...pending], this.options.pollIntervalMs);
          pending.clear();
          break;
        }
        for (const swap of group) {
          if (await this.pollOne(owner, swap, reports.get(swap.providerTransactionId))) {
            polled.push(swap.id);
          }
          pending.delete(swap.id);
        }
      }
    } finally {
      // An unexpected failure must not leave leases behind until they expire.
      if (pending.size > 0) {
        await this.swaps.reschedule(owner, [...pending], 0).catch((error: unknown) => {
          this.logger.warn({ owner, err: String(error) }, 'could not release leases');
        });
      }
    }
    return { claimed: claimed.length, polled };
  }

  /** One getTransactions call; null when the provider failed (logged; the adapter counts it). */
  private async fetch(group: ClaimedSwap[]): Promise<Map<string, ProviderTransaction> | null> {
    const method = 'getTransactions';
    try {
      const txs = await this.provider.getTransactions({
        ids: group.map((s) => s.providerTransactionId),
      });
      return new Map(txs.map((tx) => [tx.id, tx]));
    } catch (error: unknown) {
      if (!isUpstreamFailure(error)) {
        throw error;
      }
      this.logger.warn(
        { method, code: error.code, swaps: group.length },
        'provider failed; batch retried next interval',
      );
      return null;
    }
  }

  /** Applies one report; true when something was written back. */
  private async pollOne(
    owner: string,
    swap: ClaimedSwap,
    tx: ProviderTransaction | undefined,
  ): Promise<boolean> {
    if (!tx) {
      this.metrics.unknownTransactions.inc();
      this.logger.warn(
        { swapId: swap.id, orgId: swap.organizationId, providerId: swap.providerTransactionId },
        'provider did not report the transaction',
      );
      await this.swaps.reschedule(owner, [swap.id], this.options.pollIntervalMs);
      return false;
    }
    const plan = planSettlement(swap, tx);
    if (plan.kind === 'violation') {
      this.metrics.violations.inc({ from: plan.from, to: plan.to });
      this.logger.warn(
        { swapId: swap.id, orgId: swap.organizationId, from: plan.from, to: plan.to },
        'provider reported a transition the graph forbids; ignored',
      );
      await this.swaps.reschedule(owner, [swap.id], this.options.pollIntervalMs);
      return false;
    }
    const changed = plan.to !== plan.from;
    let earnings: NewEarningsEntry | null = null;
    if (changed && plan.to === 'finished') {
      const priced = await this.earningsFor(swap, plan.fields.amountActualFrom);
      if (priced === 'retry') {
        await this.swaps.reschedule(owner, [swap.id], this.options.pollIntervalMs);
        return false;
      }
      earnings = priced;
    }
    const update: PolledUpdate = {
      status: plan.to,
      fields: plan.fields,
      nextPollInMs: isTerminal(plan.to) ? null : this.options.pollIntervalMs,
      transition: changed ? { from: plan.from, to: plan.to, providerStatus: tx.status } : null,
    };
    const result = await this.writeBack(owner, swap, update, earnings);
    if (result === null) {
      this.metrics.leaseLost.inc();
      this.logger.warn({ swapId: swap.id, owner }, 'lease lost before write-back; result dropped');
      return false;
    }
    this.metrics.polled.inc();
    if (changed) {
      this.metrics.transitions.inc({ status: plan.to });
      this.logger.log(
        { swapId: swap.id, orgId: swap.organizationId, from: plan.from, to: plan.to },
        'swap status changed',
      );
    }
    if (result.earningsBooked) {
      this.metrics.earningsBooked.inc();
    }
    if (result.payoutCreated) {
      this.metrics.payoutsCreated.inc();
      this.logger.log({ orgId: swap.organizationId }, 'payout due');
    }
    return true;
  }

  /**
   * The swap's new state, its event and its earnings in one transaction; null when the lease
   * was lost and nothing was written.
   */
  private writeBack(
    owner: string,
    swap: ClaimedSwap,
    update: PolledUpdate,
    earnings: NewEarningsEntry | null,
  ): Promise<BookingResult | null> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.swaps.applyPolledUpdate(manager, owner, swap, update))) {
        return null;
      }
      return earnings ? this.earnings.bookWithin(manager, earnings) : NOT_BOOKED;
    });
  }

  /**
   * The ledger entry for a swap that just finished, priced now. `retry` when the price is not
   * available: the swap keeps its status until it can be booked with it, so a finished swap
   * never goes unbooked.
   */
  private async earningsFor(
    swap: ClaimedSwap,
    reportedAmount: string | null,
  ): Promise<NewEarningsEntry | null | 'retry'> {
    if (new Decimal(swap.feePercent).isZero()) {
      return null;
    }
    // A finished swap has received its deposit; the requested amount stands in only if the
    // provider never reported the actual one.
    const amountActualFrom = reportedAmount ?? swap.amountFrom;
    let usdPrice: string;
    try {
      usdPrice = await this.pricer.usdPrice(swap.from, amountActualFrom);
    } catch (error: unknown) {
      if (!isUpstreamFailure(error)) {
        throw error;
      }
      this.logger.warn(
        { swapId: swap.id, orgId: swap.organizationId, code: error.code },
        'could not price a finished swap; retried next interval',
      );
      return 'retry';
    }
    return {
      organizationId: swap.organizationId,
      swapId: swap.id,
      feePercent: swap.feePercent,
      amountActualFrom,
      from: swap.from,
      usdPrice,
      amountUsd: feeInUsd(amountActualFrom, usdPrice, swap.feePercent),
    };
  }
}
