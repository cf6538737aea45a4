import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { type OwnerScope, type ProviderName, TERMINAL_STATUSES } from '#app/domain';
import { BatchStatement, EntityColumns, rowsOf, SwapEntity } from '#app/persistence';
import type { PollScope, PolledWrite, RefreshedSwap } from './polled-swap.js';
import { SWAP_VIEW_FIELDS } from './swap.view.js';

const TERMINAL_SQL = TERMINAL_STATUSES.map((s) => `'${s}'`).join(',');

/**
 * The swaps aggregate (`swaps` and its `swap_events`), the only writer of both: a created or
 * imported swap's insert, and the poller's leases, claims and guarded write-backs with the reads
 * they decide on. The partner's reads are `SwapViewsRepository`'s. Plain SQL throughout, every row
 * selected through the entity's column metadata (`EntityColumns.select`): claims and guarded
 * write-backs need SQL that the query builder only obscures. Writes that belong in a caller's
 * transaction take its manager.
 */
@Injectable()
export class SwapsRepository {
  private readonly columns: EntityColumns<SwapEntity>;
  /**
   * What a refresh reads of the swaps aliased `s` and the organization aliased `o`: the swap as a
   * partner reads it, where the provider keeps it, and the org's fee.
   */
  private readonly refreshed: string;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.columns = new EntityColumns(dataSource, SwapEntity);
    this.refreshed = [
      this.columns.select('s', SWAP_VIEW_FIELDS, { iso: true }),
      this.columns.select('s', ['organizationId', 'provider', 'providerTransactionId']),
      'o.fee_percent AS "feePercent"',
    ].join(', ');
  }

  async insert(manager: EntityManager, swap: SwapEntity): Promise<void> {
    await manager.query(
      `INSERT INTO swaps (${this.columns.list}) VALUES (${this.columns.placeholders()})`,
      this.columns.values(swap),
    );
  }

  /**
   * Inserts legacy swaps in the caller's transaction; ids that exist already are skipped, never
   * overwritten. Returns the ids inserted.
   */
  async importMissing(manager: EntityManager, swaps: SwapEntity[]): Promise<Set<string>> {
    if (swaps.length === 0) {
      return new Set();
    }
    const { width } = this.columns;
    const rows = swaps.map((_, i) => `(${this.columns.placeholders(i * width + 1)})`).join(', ');
    const inserted = await manager.query<{ id: string }[]>(
      `INSERT INTO swaps (${this.columns.list}) VALUES ${rows}
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      swaps.flatMap((swap) => this.columns.values(swap)),
    );
    return new Set(inserted.map((row) => row.id));
  }

  /** Only the owner's own swap; another org's or mode's id reads as unknown. */
  async findByIdForOrg(id: string, owner: OwnerScope): Promise<SwapEntity | null> {
    const rows = await this.dataSource.query<Record<string, unknown>[]>(
      `SELECT ${this.columns.select('s')} FROM swaps s
        WHERE s.id = $1 AND s.organization_id = $2 AND s.livemode = $3`,
      [id, owner.organizationId, owner.livemode],
    );
    return rows.length > 0 ? this.columns.fromSelected(rows[0]) : null;
  }

  /** Whether a swap of this mode holds the provider transaction already. */
  async isHeld(
    provider: ProviderName,
    providerTransactionId: string,
    livemode: boolean,
  ): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(
      `SELECT 1 FROM swaps
        WHERE provider = $1 AND provider_transaction_id = $2 AND livemode = $3 LIMIT 1`,
      [provider, providerTransactionId, livemode],
    );
    return rows.length > 0;
  }

  /** Creation time of the lane's oldest swap still to refresh; null when none is. */
  async oldestActiveCreatedAt(scope: PollScope): Promise<Date | null> {
    const [row] = await this.dataSource.query<{ oldest: Date | null }[]>(
      `SELECT min(created_at) AS oldest FROM swaps
        WHERE provider = $1 AND livemode = $2 AND status NOT IN (${TERMINAL_SQL})
          AND provider_transaction_id IS NOT NULL`,
      [scope.provider, scope.livemode],
    );
    return row?.oldest ?? null;
  }

  /**
   * How overdue the lane's most overdue active swap is, in ms: the time since the provider last
   * confirmed it (or since it was created) beyond `intervalMs`; 0 when none is overdue.
   */
  async oldestDueLagMs(scope: PollScope, intervalMs: number): Promise<number> {
    const [row] = await this.dataSource.query<{ lag_ms: number | null }[]>(
      `SELECT EXTRACT(EPOCH FROM now() - min(coalesce(last_seen_at, created_at)))::float8 * 1000
              - $2 AS lag_ms
         FROM swaps
        WHERE provider = $3 AND livemode = $1 AND status NOT IN (${TERMINAL_SQL})
          AND provider_transaction_id IS NOT NULL`,
      [scope.livemode, intervalMs, scope.provider],
    );
    return Math.max(0, row?.lag_ms ?? 0);
  }

  /**
   * The lane's still active swaps behind these provider transactions, with their org's fee and
   * how late each is: how long past `intervalMs` since it was last confirmed (or created).
   */
  async findActiveByProviderIds(
    providerIds: string[],
    scope: PollScope,
    intervalMs: number,
  ): Promise<RefreshedSwap[]> {
    if (providerIds.length === 0) {
      return [];
    }
    return this.dataSource.query<RefreshedSwap[]>(
      `SELECT ${this.refreshed},
         GREATEST(0, EXTRACT(EPOCH FROM now() - coalesce(s.last_seen_at, s.created_at)) * 1000
           - $3)::float8 AS "lagMs"
         FROM swaps s JOIN organizations o ON o.id = s.organization_id
        WHERE s.provider_transaction_id = ANY($1) AND s.provider = $4 AND s.livemode = $2
          AND s.status NOT IN (${TERMINAL_SQL})`,
      [providerIds, scope.livemode, intervalMs, scope.provider],
    );
  }

  /** The owner's swap as a refresh reads it, if it is still active. */
  async findActiveForOwner(id: string, owner: OwnerScope): Promise<RefreshedSwap | null> {
    const rows = await this.dataSource.query<RefreshedSwap[]>(
      `SELECT ${this.refreshed}, 0::float8 AS "lagMs"
         FROM swaps s JOIN organizations o ON o.id = s.organization_id
        WHERE s.id = $1 AND s.organization_id = $2 AND s.livemode = $3
          AND s.provider_transaction_id IS NOT NULL AND s.status NOT IN (${TERMINAL_SQL})`,
      [id, owner.organizationId, owner.livemode],
    );
    return rows[0] ?? null;
  }

  /**
   * Leases up to `limit` swaps of one lane the current cycle has not confirmed yet (not seen since
   * `cycleStartedAt`, created before it), oldest confirmation first. Rows another poller is
   * claiming right now are skipped, so two pollers never claim the same swap; an expired lease
   * (a dead poller) is claimed again.
   */
  async claimUnseen(
    owner: string,
    scope: PollScope,
    limit: number,
    leaseMs: number,
    cycleStartedAt: Date,
  ): Promise<RefreshedSwap[]> {
    const rows = await this.dataSource.query<[RefreshedSwap[], number] | RefreshedSwap[]>(
      `WITH due AS (
         SELECT id FROM swaps
          WHERE provider = $6 AND livemode = $5 AND status NOT IN (${TERMINAL_SQL})
            AND provider_transaction_id IS NOT NULL
            AND created_at < $4
            AND (last_seen_at IS NULL OR last_seen_at < $4)
            AND (next_poll_at IS NULL OR next_poll_at <= now())
            AND (lease_until IS NULL OR lease_until < now())
          ORDER BY last_seen_at NULLS FIRST
          LIMIT $2
          FOR UPDATE SKIP LOCKED
       )
       UPDATE swaps s
          SET lease_owner = $1, lease_until = now() + $3::float8 * interval '1 millisecond'
         FROM due, organizations o
        WHERE s.id = due.id AND o.id = s.organization_id
       RETURNING ${this.refreshed},
         GREATEST(0, EXTRACT(EPOCH FROM now() - coalesce(s.last_seen_at, s.created_at)) * 1000)::float8
           AS "lagMs"`,
      [owner, limit, leaseMs, cycleStartedAt, scope.livemode, scope.provider],
    );
    return rowsOf(rows);
  }

  /**
   * Steps of a page's write-back (in `statement`): each refresh is written (status, settlement
   * fields, confirmed now, its lease given back) only while the swap's status is still the one it
   * was read in and, for claimed swaps, `owner` still holds an unexpired lease, so a poller that
   * stalled past its lease cannot overwrite the one that reclaimed the swap; a status change also
   * gets its `swap_events` row. Answers the step returning the ids written (`id`), for the steps
   * that record what a write implies; null when there is nothing to write.
   */
  writePolledWithin(
    statement: BatchStatement,
    owner: string | null,
    writes: PolledWrite[],
  ): string | null {
    if (writes.length === 0) {
      return null;
    }
    const rows = writes.map(({ swap, update: { status, fields: f, transition } }) => ({
      id: swap.id,
      read_status: swap.status,
      status,
      payin_hash: f.payinHash,
      payout_hash: f.payoutHash,
      refund_hash: f.refundHash,
      amount_actual_from: f.amountActualFrom,
      amount_actual_to: f.amountActualTo,
      actual_network_fee: f.actualNetworkFee,
      money_received_at: f.moneyReceivedAt,
      money_sent_at: f.moneySentAt,
      amount_anomaly_pct: f.amountAnomalyPct,
      provider_status: transition?.providerStatus ?? null,
    }));
    const leaseHeld =
      owner === null
        ? ''
        : `AND s.lease_owner = ${statement.param(owner)} AND s.lease_until > now()`;
    statement.step(
      'polled_input',
      `SELECT * FROM json_to_recordset(${statement.param(JSON.stringify(rows))}::json) AS c(
         id text, read_status text, status text, payin_hash text, payout_hash text, refund_hash text,
         amount_actual_from numeric, amount_actual_to numeric, actual_network_fee numeric,
         money_received_at timestamptz, money_sent_at timestamptz, amount_anomaly_pct numeric,
         provider_status text)`,
    );
    const written = statement.step(
      'polled',
      `UPDATE swaps s
          SET status = c.status, payin_hash = c.payin_hash, payout_hash = c.payout_hash,
              refund_hash = c.refund_hash,
              amount_actual_from = c.amount_actual_from, amount_actual_to = c.amount_actual_to,
              actual_network_fee = c.actual_network_fee, money_received_at = c.money_received_at,
              money_sent_at = c.money_sent_at, amount_anomaly_pct = c.amount_anomaly_pct,
              next_poll_at = CASE WHEN c.status IN (${TERMINAL_SQL}) THEN NULL ELSE s.next_poll_at END,
              lease_owner = NULL, lease_until = NULL, last_seen_at = now(), updated_at = now()
         FROM polled_input c
        WHERE s.id = c.id AND s.status = c.read_status ${leaseHeld}
       RETURNING s.id`,
    );
    statement.step(
      'polled_history',
      `INSERT INTO swap_events (swap_id, from_status, to_status, source, details)
       SELECT c.id, c.read_status, c.status, 'poller',
              jsonb_build_object('providerStatus', c.provider_status)
         FROM polled_input c JOIN ${written} w ON w.id = c.id
        WHERE c.status <> c.read_status`,
    );
    return written;
  }

  /**
   * A step noting that the provider confirmed these swaps as they are. Claimed ones (`owner`) give
   * their lease back and are due again at once, for the next cycle's listing or claim.
   */
  markSeenWithin(statement: BatchStatement, owner: string | null, swapIds: string[]): void {
    if (swapIds.length === 0) {
      return;
    }
    const ids = statement.param(swapIds);
    statement.step(
      'polled_seen',
      owner === null
        ? `UPDATE swaps SET last_seen_at = now() WHERE id = ANY(${ids}) RETURNING id`
        : `UPDATE swaps SET last_seen_at = now(), next_poll_at = now(), lease_owner = NULL,
                  lease_until = NULL
            WHERE id = ANY(${ids}) AND lease_owner = ${statement.param(owner)}
           RETURNING id`,
    );
  }

  /** A step giving `owner`'s leases back without a result: the swaps are due after `delayMs`. */
  rescheduleWithin(
    statement: BatchStatement,
    owner: string,
    swapIds: string[],
    delayMs: number,
  ): void {
    if (swapIds.length === 0) {
      return;
    }
    statement.step(
      'polled_rescheduled',
      `UPDATE swaps
          SET next_poll_at = now() + ${statement.param(delayMs)}::float8 * interval '1 millisecond',
              lease_owner = NULL, lease_until = NULL
        WHERE id = ANY(${statement.param(swapIds)}) AND lease_owner = ${statement.param(owner)}
       RETURNING id`,
    );
  }

  /** A step keeping the leases `owner` still holds on these swaps for another `leaseMs`. */
  extendLeasesWithin(
    statement: BatchStatement,
    owner: string,
    swapIds: string[],
    leaseMs: number,
  ): void {
    if (swapIds.length === 0) {
      return;
    }
    statement.step(
      'polled_leases',
      `UPDATE swaps SET lease_until = now() + ${statement.param(leaseMs)}::float8 * interval '1 millisecond'
        WHERE id = ANY(${statement.param(swapIds)}) AND lease_owner = ${statement.param(owner)}
       RETURNING id`,
    );
  }

  /** Gives leases back without a result; the swaps are due again after `delayMs`. */
  async reschedule(owner: string, swapIds: string[], delayMs: number): Promise<void> {
    const statement = new BatchStatement();
    this.rescheduleWithin(statement, owner, swapIds, delayMs);
    if (!statement.empty) {
      await statement.run(this.dataSource, 'SELECT 1');
    }
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
}
