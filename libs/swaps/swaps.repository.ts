import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { type OwnerScope, TERMINAL_STATUSES } from '#app/domain';
import { EntityColumns, rowsOf, SwapEntity } from '#app/persistence';
import type { PolledSwap, PolledUpdate, RefreshedSwap } from './polled-swap.js';

const TERMINAL_SQL = TERMINAL_STATUSES.map((s) => `'${s}'`).join(',');
/** What a refresh reads of a swap, besides its org's fee and how late it is. */
const POLLED_COLUMNS: Record<keyof PolledSwap, true> = {
  id: true,
  organizationId: true,
  livemode: true,
  providerTransactionId: true,
  status: true,
  from: true,
  amountFrom: true,
  payinHash: true,
  payoutHash: true,
  amountActualFrom: true,
  amountActualTo: true,
  actualNetworkFee: true,
  moneyReceivedAt: true,
  moneySentAt: true,
  amountAnomalyPct: true,
};
const POLLED_FIELDS = Object.keys(POLLED_COLUMNS) as (keyof PolledSwap)[];

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
  /** What a refresh reads of the swaps aliased `s` and the organization aliased `o`. */
  private readonly refreshed: string;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.columns = new EntityColumns(dataSource, SwapEntity);
    this.refreshed = `${this.columns.select('s', POLLED_FIELDS)}, o.fee_percent AS "feePercent"`;
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
  async isHeld(providerTransactionId: string, livemode: boolean): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(
      `SELECT 1 FROM swaps WHERE provider_transaction_id = $1 AND livemode = $2 LIMIT 1`,
      [providerTransactionId, livemode],
    );
    return rows.length > 0;
  }

  /** Creation time of the mode's oldest swap still to refresh; null when none is. */
  async oldestActiveCreatedAt(livemode: boolean): Promise<Date | null> {
    const [row] = await this.dataSource.query<{ oldest: Date | null }[]>(
      `SELECT min(created_at) AS oldest FROM swaps
        WHERE livemode = $1 AND status NOT IN (${TERMINAL_SQL})
          AND provider_transaction_id IS NOT NULL`,
      [livemode],
    );
    return row?.oldest ?? null;
  }

  /**
   * How overdue the mode's most overdue active swap is, in ms: the time since the provider last
   * confirmed it (or since it was created) beyond `intervalMs`; 0 when none is overdue.
   */
  async oldestDueLagMs(livemode: boolean, intervalMs: number): Promise<number> {
    const [row] = await this.dataSource.query<{ lag_ms: number | null }[]>(
      `SELECT EXTRACT(EPOCH FROM now() - min(coalesce(last_seen_at, created_at)))::float8 * 1000
              - $2 AS lag_ms
         FROM swaps
        WHERE livemode = $1 AND status NOT IN (${TERMINAL_SQL})
          AND provider_transaction_id IS NOT NULL`,
      [livemode, intervalMs],
    );
    return Math.max(0, row?.lag_ms ?? 0);
  }

  /** The mode's still active swaps behind these provider transactions, with their org's fee. */
  async findActiveByProviderIds(
    providerIds: string[],
    livemode: boolean,
  ): Promise<RefreshedSwap[]> {
    if (providerIds.length === 0) {
      return [];
    }
    return this.dataSource.query<RefreshedSwap[]>(
      `SELECT ${this.refreshed}, 0::float8 AS "lagMs"
         FROM swaps s JOIN organizations o ON o.id = s.organization_id
        WHERE s.provider_transaction_id = ANY($1) AND s.livemode = $2
          AND s.status NOT IN (${TERMINAL_SQL})`,
      [providerIds, livemode],
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
   * Notes that the provider confirmed these swaps as they are; answers how late each was, one
   * `intervalMs` after it was last confirmed (or created).
   */
  async markSeen(swapIds: string[], intervalMs: number): Promise<number[]> {
    if (swapIds.length === 0) {
      return [];
    }
    const rows = rowsOf<{ lag_ms: string }>(
      await this.dataSource.query<[{ lag_ms: string }[], number]>(
        `UPDATE swaps s SET last_seen_at = now()
           FROM (SELECT id, coalesce(last_seen_at, created_at) AS seen FROM swaps
                  WHERE id = ANY($1) FOR UPDATE) before
          WHERE s.id = before.id
         RETURNING GREATEST(0, EXTRACT(EPOCH FROM now() - before.seen) * 1000 - $2) AS lag_ms`,
        [swapIds, intervalMs],
      ),
    );
    return rows.map((row) => Number(row.lag_ms));
  }

  /**
   * Leases up to `limit` swaps of one mode the current cycle has not confirmed yet (not seen since
   * `cycleStartedAt`, created before it), oldest confirmation first. Rows another poller is
   * claiming right now are skipped, so two pollers never claim the same swap; an expired lease
   * (a dead poller) is claimed again.
   */
  async claimUnseen(
    owner: string,
    livemode: boolean,
    limit: number,
    leaseMs: number,
    cycleStartedAt: Date,
  ): Promise<RefreshedSwap[]> {
    const rows = await this.dataSource.query<[RefreshedSwap[], number] | RefreshedSwap[]>(
      `WITH due AS (
         SELECT id FROM swaps
          WHERE livemode = $5 AND status NOT IN (${TERMINAL_SQL})
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
      [owner, limit, leaseMs, cycleStartedAt, livemode],
    );
    return rowsOf(rows);
  }

  /** Keeps the leases `owner` still holds on these swaps for another `leaseMs`. */
  async extendLeases(owner: string, swapIds: string[], leaseMs: number): Promise<void> {
    if (swapIds.length === 0) {
      return;
    }
    await this.dataSource.query(
      `UPDATE swaps SET lease_until = now() + $3::float8 * interval '1 millisecond'
        WHERE id = ANY($2) AND lease_owner = $1`,
      [owner, swapIds, leaseMs],
    );
  }

  /**
   * Writes one refresh's result, its event, and (for a claimed swap) gives the lease back, inside
   * the caller's transaction. Nothing is written unless the status is still the one it read and,
   * for a claimed swap, `owner` still holds an unexpired lease: a poller that stalled past its
   * lease cannot overwrite the one that reclaimed the swap. Returns the swap as written, or null
   * when nothing was.
   */
  async applyPolledUpdate(
    manager: EntityManager,
    owner: string | null,
    swap: PolledSwap,
    update: PolledUpdate,
  ): Promise<SwapEntity | null> {
    const f = update.fields;
    const leaseHeld = owner === null ? '' : 'AND lease_owner = $12 AND lease_until > now()';
    const updated = rowsOf<Record<string, unknown>>(
      await manager.query<[Record<string, unknown>[], number]>(
        `UPDATE swaps s
            SET status = $2::text, payin_hash = $3, payout_hash = $4, amount_actual_from = $5,
                amount_actual_to = $6, actual_network_fee = $7, money_received_at = $8,
                money_sent_at = $9, amount_anomaly_pct = $10,
                next_poll_at = CASE WHEN $2::text IN (${TERMINAL_SQL}) THEN NULL ELSE next_poll_at END,
                lease_owner = NULL, lease_until = NULL, last_seen_at = now(), updated_at = now()
          WHERE id = $1 AND status = $11 ${leaseHeld}
          RETURNING ${this.columns.select('s')}`,
        [
          swap.id,
          update.status,
          f.payinHash,
          f.payoutHash,
          f.amountActualFrom,
          f.amountActualTo,
          f.actualNetworkFee,
          f.moneyReceivedAt,
          f.moneySentAt,
          f.amountAnomalyPct,
          swap.status,
          ...(owner === null ? [] : [owner]),
        ],
      ),
    );
    if (updated.length === 0) {
      return null;
    }
    if (update.transition) {
      await manager.query(
        `INSERT INTO swap_events (swap_id, from_status, to_status, source, details)
         VALUES ($1, $2, $3, 'poller', $4)`,
        [
          swap.id,
          update.transition.from,
          update.transition.to,
          { providerStatus: update.transition.providerStatus },
        ],
      );
    }
    return this.columns.fromSelected(updated[0]);
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
}
