import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { type SwapStatus, TERMINAL_STATUSES } from '#app/domain';
import { EarningsRepository, type NewEarningsEntry } from './earnings.repository.js';
import type { PolledSwap, SettlementFields } from './settlement-plan.js';

const TERMINAL_SQL = TERMINAL_STATUSES.map((s) => `'${s}'`).join(',');

/** A swap this poller holds a lease on, with how late its poll is and its org's fee. */
export interface ClaimedSwap extends PolledSwap {
  feePercent: string;
  lagMs: number;
}

/** What one poll writes back. */
export interface SwapUpdate {
  status: SwapStatus;
  fields: SettlementFields;
  /** Null once terminal: terminal swaps are never polled again. */
  nextPollInMs: number | null;
  /** Recorded in `swap_events` when the status changed. */
  transition: { from: SwapStatus; to: SwapStatus; providerStatus: string } | null;
  earnings: NewEarningsEntry | null;
}

export interface AppliedUpdate {
  /** False when the lease was lost (expired and reclaimed): nothing was written. */
  applied: boolean;
  earningsBooked: boolean;
  payoutCreated: boolean;
}

interface ClaimRow {
  id: string;
  organization_id: string;
  provider_transaction_id: string;
  status: SwapStatus;
  from_ticker: string;
  amount_from: string;
  payin_hash: string | null;
  payout_hash: string | null;
  amount_actual_from: string | null;
  amount_actual_to: string | null;
  actual_network_fee: string | null;
  money_received_at: Date | null;
  money_sent_at: Date | null;
  amount_anomaly_pct: string | null;
  fee_percent: string;
  lag_ms: string;
}

/**
 * The poller's side of the swaps aggregate: leases (owner, until) taken with
 * `FOR UPDATE SKIP LOCKED`, and write-backs that only land while the lease is still held.
 */
@Injectable()
export class SwapPollingRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly earnings: EarningsRepository,
  ) {}

  /**
   * Leases up to `limit` due swaps to `owner`. Due: non-terminal, known to the provider,
   * `next_poll_at` passed, and not leased (or the lease expired: its poller died). Rows another
   * poller is claiming right now are skipped, so two pollers never claim the same swap.
   */
  async claimDueForPolling(owner: string, limit: number, leaseMs: number): Promise<ClaimedSwap[]> {
    const rows = await this.dataSource.query<[ClaimRow[], number] | ClaimRow[]>(
      `WITH due AS (
         SELECT id FROM swaps
          WHERE status NOT IN (${TERMINAL_SQL})
            AND provider_transaction_id IS NOT NULL
            AND (next_poll_at IS NULL OR next_poll_at <= now())
            AND (lease_until IS NULL OR lease_until < now())
          ORDER BY next_poll_at NULLS FIRST
          LIMIT $2
          FOR UPDATE SKIP LOCKED
       )
       UPDATE swaps s
          SET lease_owner = $1, lease_until = now() + $3::float8 * interval '1 millisecond'
         FROM due, organizations o
        WHERE s.id = due.id AND o.id = s.organization_id
       RETURNING s.id, s.organization_id, s.provider_transaction_id, s.status, s.from_ticker,
         s.amount_from, s.payin_hash, s.payout_hash, s.amount_actual_from, s.amount_actual_to,
         s.actual_network_fee, s.money_received_at, s.money_sent_at, s.amount_anomaly_pct,
         o.fee_percent,
         GREATEST(0, EXTRACT(EPOCH FROM now() - COALESCE(s.next_poll_at, s.created_at)) * 1000)
           AS lag_ms`,
      [owner, limit, leaseMs],
    );
    return rowsOf(rows).map(toClaimedSwap);
  }

  /**
   * Writes one poll's result and gives the lease back, in one transaction with its event and
   * earnings. Nothing is written unless `owner` still holds an unexpired lease, so a poller that
   * stalled past its lease cannot overwrite the one that reclaimed the swap.
   */
  async applyUpdate(owner: string, swap: ClaimedSwap, update: SwapUpdate): Promise<AppliedUpdate> {
    return this.dataSource.transaction(async (manager) => {
      const f = update.fields;
      const updated = rowsOf(
        await manager.query<[unknown[], number]>(
          `UPDATE swaps
              SET status = $3, payin_hash = $4, payout_hash = $5, amount_actual_from = $6,
                  amount_actual_to = $7, actual_network_fee = $8, money_received_at = $9,
                  money_sent_at = $10, amount_anomaly_pct = $11,
                  next_poll_at = CASE WHEN $12::float8 IS NULL THEN NULL
                                      ELSE now() + $12::float8 * interval '1 millisecond' END,
                  lease_owner = NULL, lease_until = NULL, updated_at = now()
            WHERE id = $1 AND lease_owner = $2 AND lease_until > now() AND status = $13
            RETURNING id`,
          [
            swap.id,
            owner,
            update.status,
            f.payinHash,
            f.payoutHash,
            f.amountActualFrom,
            f.amountActualTo,
            f.actualNetworkFee,
            f.moneyReceivedAt,
            f.moneySentAt,
            f.amountAnomalyPct,
            update.nextPollInMs,
            swap.status,
          ],
        ),
      );
      if (updated.length === 0) {
        return { applied: false, earningsBooked: false, payoutCreated: false };
      }
      if (update.transition) {
        await this.recordTransition(manager, swap.id, update.transition);
      }
      if (!update.earnings) {
        return { applied: true, earningsBooked: false, payoutCreated: false };
      }
      const booked = await this.earnings.bookWithin(manager, update.earnings);
      return { applied: true, ...booked };
    });
  }

  /** Gives leases back without a result; the swaps are due again after `delayMs`. */
  async reschedule(owner: string, swapIds: string[], delayMs: number): Promise<void> {
    if (swapIds.length === 0) {
      return;
    }
    await this.dataSource.query(
      `UPDATE swaps
          SET next_poll_at = now() + $3::float8 * interval '1 millisecond',
              lease_owner = NULL, lease_until = NULL
        WHERE id = ANY($2) AND lease_owner = $1`,
      [owner, swapIds, delayMs],
    );
  }

  /** Every lease `owner` still holds (on shutdown): the swaps stay due for the other pollers. */
  async releaseLeases(owner: string): Promise<number> {
    const rows = rowsOf(
      await this.dataSource.query<[unknown[], number]>(
        `UPDATE swaps SET lease_owner = NULL, lease_until = NULL
          WHERE lease_owner = $1 AND status NOT IN (${TERMINAL_SQL})
          RETURNING id`,
        [owner],
      ),
    );
    return rows.length;
  }

  private async recordTransition(
    manager: EntityManager,
    swapId: string,
    transition: NonNullable<SwapUpdate['transition']>,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO swap_events (swap_id, from_status, to_status, source, details)
       VALUES ($1, $2, $3, 'poller', $4)`,
      [swapId, transition.from, transition.to, { providerStatus: transition.providerStatus }],
    );
  }
}

/** `UPDATE … RETURNING` answers `[rows, count]` through TypeORM's postgres driver. */
function rowsOf<T>(result: [T[], number] | T[]): T[] {
  return Array.isArray(result[0]) ? (result as [T[], number])[0] : (result as T[]);
}

function toClaimedSwap(row: ClaimRow): ClaimedSwap {
  return {
    id: row.id,
    organizationId: row.organization_id,
    providerTransactionId: row.provider_transaction_id,
    status: row.status,
    from: row.from_ticker,
    amountFrom: row.amount_from,
    payinHash: row.payin_hash,
    payoutHash: row.payout_hash,
    amountActualFrom: row.amount_actual_from,
    amountActualTo: row.amount_actual_to,
    actualNetworkFee: row.actual_network_fee,
    moneyReceivedAt: row.money_received_at,
    moneySentAt: row.money_sent_at,
    amountAnomalyPct: row.amount_anomaly_pct,
    feePercent: row.fee_percent,
    lagMs: Number(row.lag_ms),
  };
}
