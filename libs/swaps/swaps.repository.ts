import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { type OwnerScope, type SwapStatus, TERMINAL_STATUSES } from '#app/domain';
import {
  CursorReads,
  EntityColumns,
  keysetAtSql,
  keysetClauses,
  keysetPage,
  PreparedReads,
  rowsOf,
  SwapEntity,
  type KeysetPage,
  type KeysetPageRequest,
} from '#app/persistence';
import type { PolledSwap, PolledUpdate, RefreshedSwap } from './polled-swap.js';
import type { SwapFilters } from './swap-filters.js';
import type { SwapViewRow } from './swap.view.js';

export interface SwapListQuery {
  limit: number;
  offset: number;
  partnerReferenceId?: string;
}

/** Each field of a partner read and the column it comes from; timestamps are read as ISO text. */
const VIEW_COLUMNS: Record<keyof SwapViewRow, { column: string; iso?: true }> = {
  id: { column: 'id' },
  status: { column: 'status' },
  mode: { column: 'mode' },
  livemode: { column: 'livemode' },
  from: { column: 'from_ticker' },
  to: { column: 'to_ticker' },
  amountFrom: { column: 'amount_from' },
  amountExpectedTo: { column: 'amount_expected_to' },
  amountActualFrom: { column: 'amount_actual_from' },
  amountActualTo: { column: 'amount_actual_to' },
  networkFee: { column: 'network_fee' },
  actualNetworkFee: { column: 'actual_network_fee' },
  rate: { column: 'rate' },
  amountAnomalyPct: { column: 'amount_anomaly_pct' },
  payinAddress: { column: 'payin_address' },
  payoutAddress: { column: 'payout_address' },
  refundAddress: { column: 'refund_address' },
  payinHash: { column: 'payin_hash' },
  payoutHash: { column: 'payout_hash' },
  moneyReceivedAt: { column: 'money_received_at', iso: true },
  moneySentAt: { column: 'money_sent_at', iso: true },
  partnerReferenceId: { column: 'partner_reference_id' },
  payTill: { column: 'pay_till', iso: true },
  createdAt: { column: 'created_at', iso: true },
};

/**
 * The select list of a `SwapViewRow` from the swaps aliased `alias`. A timestamp becomes text
 * exactly as `Date.toISOString` writes it (UTC, milliseconds truncated), so no row pays for
 * parsing it into a `Date` only to print it again.
 */
function viewSelect(alias: string): string {
  return Object.entries(VIEW_COLUMNS)
    .map(([field, { column, iso }]) =>
      iso
        ? `to_char(${alias}.${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "${field}"`
        : `${alias}.${column} AS "${field}"`,
    )
    .join(', ');
}

const VIEW_BY_ID_SQL = `SELECT ${viewSelect('s')} FROM swaps s
  WHERE s.id = $1 AND s.organization_id = $2 AND s.livemode = $3`;

function viewListSql(byReference: boolean): string {
  return `SELECT ${viewSelect('s')} FROM swaps s
    WHERE s.organization_id = $1 AND s.livemode = $4
      ${byReference ? 'AND s.partner_reference_id = $5' : ''}
    ORDER BY s.created_at DESC, s.id DESC LIMIT $2 OFFSET $3`;
}

const VIEW_LIST_SQL = viewListSql(false);
const VIEW_LIST_BY_REFERENCE_SQL = viewListSql(true);

/** A completed, unexpired key of a credential with its swap if that is the owner's (else nulls). */
const REPLAY_SQL = `SELECT k.fingerprint AS "keyFingerprint", ${viewSelect('s')}
    FROM idempotency_keys k
    LEFT JOIN swaps s ON s.id = k.swap_id AND s.organization_id = $3 AND s.livemode = $4
   WHERE k.credential_id = $1 AND k.key = $2 AND k.state = 'completed' AND k.expires_at > now()`;

/**
 * The conditions of `filters` on swaps aliased `s`, the owner's scope first; each value is
 * appended to `values` and referenced by its number. Only the filters given appear, so each
 * combination is its own statement and Postgres plans it with its own values: an absent filter
 * never becomes an `IS NULL OR` that defeats the indexes.
 */
function filterConditions(owner: OwnerScope, filters: SwapFilters, values: unknown[]): string[] {
  const param = (value: unknown): string => `$${values.push(value)}`;
  const conditions = [
    `s.organization_id = ${param(owner.organizationId)}`,
    `s.livemode = ${param(owner.livemode)}`,
  ];
  if (filters.status !== undefined) {
    conditions.push(`s.status = ${param(filters.status)}`);
  }
  if (filters.from !== undefined) {
    conditions.push(`s.from_ticker = ${param(filters.from)}`);
  }
  if (filters.to !== undefined) {
    conditions.push(`s.to_ticker = ${param(filters.to)}`);
  }
  if (filters.createdFrom !== undefined) {
    conditions.push(`s.created_at >= ${param(`${filters.createdFrom}T00:00:00Z`)}::timestamptz`);
  }
  if (filters.createdTo !== undefined) {
    conditions.push(
      `s.created_at < ${param(`${filters.createdTo}T00:00:00Z`)}::timestamptz + interval '1 day'`,
    );
  }
  if (filters.search !== undefined) {
    const exact = param(filters.search);
    const folded = param(filters.search.toLowerCase());
    conditions.push(
      `(s.id = ${exact} OR s.partner_reference_id = ${exact}
        OR lower(s.payin_address) = ${folded} OR lower(s.payout_address) = ${folded})`,
    );
  }
  return conditions;
}

/** A page row: the view and its keyset position. */
type PositionedViewRow = SwapViewRow & { keysetAt: string };

function withoutPosition({ keysetAt: _, ...view }: PositionedViewRow): SwapViewRow {
  return view;
}

const TERMINAL_SQL = TERMINAL_STATUSES.map((s) => `'${s}'`).join(',');
/** What a refresh reads of a swap (`s`) and its organization (`o`). */
const CLAIM_COLUMNS = `s.id, s.organization_id, s.livemode, s.provider_transaction_id, s.status, s.from_ticker,
  s.amount_from, s.payin_hash, s.payout_hash, s.amount_actual_from, s.amount_actual_to,
  s.actual_network_fee, s.money_received_at, s.money_sent_at, s.amount_anomaly_pct,
  o.fee_percent`;

interface ClaimRow {
  id: string;
  organization_id: string;
  livemode: boolean;
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
 * The swaps aggregate (`swaps` and its `swap_events`), the only writer of both. Plain SQL
 * throughout, rows mapped through the entity's own column metadata: the partner reads are the
 * hottest paths in the service, and the poller's claims and guarded write-backs need SQL that
 * the query builder only obscures. Writes that belong in a caller's transaction take its manager.
 */
@Injectable()
export class SwapsRepository {
  private readonly columns: EntityColumns<SwapEntity>;
  private readonly prepared: PreparedReads;
  private readonly cursors: CursorReads;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.columns = new EntityColumns(dataSource, SwapEntity);
    this.prepared = new PreparedReads(dataSource);
    this.cursors = new CursorReads(dataSource);
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
      `SELECT ${this.columns.list} FROM swaps
        WHERE id = $1 AND organization_id = $2 AND livemode = $3`,
      [id, owner.organizationId, owner.livemode],
    );
    return rows.length > 0 ? this.columns.toEntity(rows[0]) : null;
  }

  /** `findByIdForOrg` as a partner reads it: one prepared statement, the view's columns only. */
  async findViewByIdForOrg(id: string, owner: OwnerScope): Promise<SwapViewRow | null> {
    const rows = await this.prepared.rows<SwapViewRow>('swap-view-by-id', VIEW_BY_ID_SQL, [
      id,
      owner.organizationId,
      owner.livemode,
    ]);
    return rows[0] ?? null;
  }

  /** The owner's swaps, newest first, as a partner reads them. */
  async listViewsForOrg(owner: OwnerScope, query: SwapListQuery): Promise<SwapViewRow[]> {
    const byReference = query.partnerReferenceId !== undefined;
    return this.prepared.rows<SwapViewRow>(
      byReference ? 'swap-views-by-reference' : 'swap-views',
      byReference ? VIEW_LIST_BY_REFERENCE_SQL : VIEW_LIST_SQL,
      [
        owner.organizationId,
        query.limit,
        query.offset,
        owner.livemode,
        ...(byReference ? [query.partnerReferenceId] : []),
      ],
    );
  }

  /**
   * One keyset page of the owner's swaps matching `filters`, newest first, as a partner reads
   * them. Every filter combination has an index in this order (docs/decisions.md, "Dashboard
   * reads"), so a page reads about `limit` index entries at any depth.
   */
  async searchViews(
    owner: OwnerScope,
    filters: SwapFilters,
    page: KeysetPageRequest,
  ): Promise<KeysetPage<SwapViewRow>> {
    const values: unknown[] = [];
    const conditions = filterConditions(owner, filters, values);
    const keyset = keysetClauses('s', page, values.length + 1);
    if (keyset.condition) {
      conditions.push(keyset.condition);
      values.push(...keyset.values);
    }
    values.push(page.limit + 1);
    const rows = await this.dataSource.query<PositionedViewRow[]>(
      `SELECT ${viewSelect('s')}, ${keysetAtSql('s')} AS "keysetAt" FROM swaps s
        WHERE ${conditions.join(' AND ')}
        ${keyset.order} LIMIT $${values.length}`,
      values,
    );
    const result = keysetPage(rows, page, (row) => ({ at: row.keysetAt, id: row.id }));
    return { ...result, items: result.items.map(withoutPosition) };
  }

  /**
   * Every one of the owner's swaps matching `filters`, newest first, in batches read from one
   * snapshot through a server-side cursor: memory holds one batch however many match.
   */
  exportViews(
    owner: OwnerScope,
    filters: SwapFilters,
    batchSize: number,
  ): AsyncGenerator<SwapViewRow[], void, undefined> {
    const values: unknown[] = [];
    const conditions = filterConditions(owner, filters, values);
    return this.cursors.batches<SwapViewRow>(
      `SELECT ${viewSelect('s')} FROM swaps s WHERE ${conditions.join(' AND ')}
        ORDER BY s.created_at DESC, s.id DESC`,
      values,
      batchSize,
    );
  }

  /**
   * The pairs the owner's swaps use, by ticker. Walks the pair index one pair at a time (a
   * loose index scan), so it costs a few probes per pair, not a read of every swap.
   */
  async pairsOfOwner(owner: OwnerScope): Promise<{ from: string; to: string }[]> {
    return this.dataSource.query<{ from: string; to: string }[]>(
      `WITH RECURSIVE pairs AS (
         (SELECT from_ticker, to_ticker FROM swaps
           WHERE organization_id = $1 AND livemode = $2
           ORDER BY from_ticker, to_ticker LIMIT 1)
         UNION ALL
         SELECT next.from_ticker, next.to_ticker FROM pairs p,
           LATERAL (SELECT from_ticker, to_ticker FROM swaps
                     WHERE organization_id = $1 AND livemode = $2
                       AND (from_ticker, to_ticker) > (p.from_ticker, p.to_ticker)
                     ORDER BY from_ticker, to_ticker LIMIT 1) next
       )
       SELECT from_ticker AS "from", to_ticker AS "to" FROM pairs`,
      [owner.organizationId, owner.livemode],
    );
  }

  /**
   * A retry's answer in one read: the credential's completed, unexpired key with the swap it
   * created, if that swap is the owner's (null: no such key yet).
   */
  async findCompletedKeySwap(
    credentialId: string,
    key: string,
    owner: OwnerScope,
  ): Promise<{ fingerprint: string; swap: SwapViewRow | null } | null> {
    const rows = await this.prepared.rows<SwapViewRow & { keyFingerprint: string }>(
      'swap-view-of-completed-key',
      REPLAY_SQL,
      [credentialId, key, owner.organizationId, owner.livemode],
    );
    const row = rows[0];
    if (!row) {
      return null;
    }
    const { keyFingerprint, ...swap } = row;
    return { fingerprint: keyFingerprint, swap: swap.id === null ? null : swap };
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

  /** The mode's still active swaps behind these provider transactions, with their org's fee. */
  async findActiveByProviderIds(
    providerIds: string[],
    livemode: boolean,
  ): Promise<RefreshedSwap[]> {
    if (providerIds.length === 0) {
      return [];
    }
    const rows = await this.dataSource.query<ClaimRow[]>(
      `SELECT ${CLAIM_COLUMNS}, 0 AS lag_ms
         FROM swaps s JOIN organizations o ON o.id = s.organization_id
        WHERE s.provider_transaction_id = ANY($1) AND s.livemode = $2
          AND s.status NOT IN (${TERMINAL_SQL})`,
      [providerIds, livemode],
    );
    return rows.map(toRefreshedSwap);
  }

  /** The owner's swap as a refresh reads it, if it is still active. */
  async findActiveForOwner(id: string, owner: OwnerScope): Promise<RefreshedSwap | null> {
    const rows = await this.dataSource.query<ClaimRow[]>(
      `SELECT ${CLAIM_COLUMNS}, 0 AS lag_ms
         FROM swaps s JOIN organizations o ON o.id = s.organization_id
        WHERE s.id = $1 AND s.organization_id = $2 AND s.livemode = $3
          AND s.provider_transaction_id IS NOT NULL AND s.status NOT IN (${TERMINAL_SQL})`,
      [id, owner.organizationId, owner.livemode],
    );
    return rows.length > 0 ? toRefreshedSwap(rows[0]) : null;
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
    const rows = await this.dataSource.query<[ClaimRow[], number] | ClaimRow[]>(
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
       RETURNING ${CLAIM_COLUMNS},
         GREATEST(0, EXTRACT(EPOCH FROM now() - coalesce(s.last_seen_at, s.created_at)) * 1000)
           AS lag_ms`,
      [owner, limit, leaseMs, cycleStartedAt, livemode],
    );
    return rowsOf(rows).map(toRefreshedSwap);
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
        `UPDATE swaps
            SET status = $2::text, payin_hash = $3, payout_hash = $4, amount_actual_from = $5,
                amount_actual_to = $6, actual_network_fee = $7, money_received_at = $8,
                money_sent_at = $9, amount_anomaly_pct = $10,
                next_poll_at = CASE WHEN $2::text IN (${TERMINAL_SQL}) THEN NULL ELSE next_poll_at END,
                lease_owner = NULL, lease_until = NULL, last_seen_at = now(), updated_at = now()
          WHERE id = $1 AND status = $11 ${leaseHeld}
          RETURNING ${this.columns.list}`,
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
    return this.columns.toEntity(updated[0]);
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

function toRefreshedSwap(row: ClaimRow): RefreshedSwap {
  return {
    id: row.id,
    organizationId: row.organization_id,
    livemode: row.livemode,
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
