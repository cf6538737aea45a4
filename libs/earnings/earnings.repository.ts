import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Decimal } from 'decimal.js';
import { type PayoutNetwork, reachesPayoutThreshold } from '#app/domain';
import {
  CursorReads,
  EarningsEntryEntity,
  EntityColumns,
  keysetAtSql,
  keysetClauses,
  keysetPage,
  PayoutEntity,
  rowsOf,
  type BatchStatement,
  type KeysetPage,
  type KeysetPageRequest,
} from '#app/persistence';

/** One partner fee to book for one finished swap. */
export interface NewEarningsEntry {
  organizationId: string;
  swapId: string;
  feePercent: string;
  amountActualFrom: string;
  from: string;
  usdPrice: string;
  amountUsd: string;
}

/**
 * A finished swap whose earnings wait for a USD price (status never waits on it: docs/decisions.md,
 * "USD valuation of earnings").
 */
export interface PendingEarnings {
  swapId: string;
  organizationId: string;
  feePercent: string;
  amountActualFrom: string;
  from: string;
}

interface PendingRow {
  swap_id: string;
  organization_id: string;
  fee_percent: string;
  amount_actual_from: string;
  from_ticker: string;
}

/** An organization's earnings in USD, as decimal strings. */
export interface EarningsTotals {
  /** Every fee ever booked. */
  earnedUsd: string;
  /** Booked and not yet assigned to a payout. */
  accruedUsd: string;
  /** Assigned to payouts that are due. */
  payableUsd: string;
  /** Assigned to payouts that were paid. */
  paidUsd: string;
  /** Finished swaps whose fee waits for a USD price before it is booked. */
  awaitingPrice: number;
}

/** One ledger entry as the dashboard shows and exports it; timestamps in ISO form. */
export interface LedgerEntryView {
  id: string;
  swapId: string;
  from: string;
  amountActualFrom: string;
  usdPrice: string;
  feePercent: string;
  amountUsd: string;
  createdAt: string;
}

/** A payout as the dashboard shows it. */
export interface PayoutView {
  id: string;
  amountUsd: string;
  asset: string;
  network: string;
  address: string | null;
  status: string;
  createdAt: string;
}

/** Ledger ids are uuids: the only id a ledger page token may name. */
export const LEDGER_KEYSET_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const LEDGER_VIEW = `e.id, e.swap_id AS "swapId", e.from_ticker AS "from",
  e.amount_actual_from::text AS "amountActualFrom", e.usd_price::text AS "usdPrice",
  e.fee_percent::text AS "feePercent", e.amount_usd::text AS "amountUsd",
  to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`;

export interface BookingResult {
  /** False when the swap was booked already (the ledger is unique per swap). */
  earningsBooked: boolean;
  payoutCreated: boolean;
}

/**
 * The earnings aggregate: the ledger, payouts, the queue of earnings waiting for a price, and
 * the balance between them; the only writer of `earnings_ledger`, `payouts` and
 * `earnings_pending`. Plain SQL, since booking locks the organization row and
 * must run inside the poller's transaction.
 */
@Injectable()
export class EarningsRepository {
  private readonly ledgerColumns: EntityColumns<EarningsEntryEntity>;
  private readonly payoutColumns: EntityColumns<PayoutEntity>;

  private readonly cursors: CursorReads;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.ledgerColumns = new EntityColumns(dataSource, EarningsEntryEntity);
    this.payoutColumns = new EntityColumns(dataSource, PayoutEntity);
    this.cursors = new CursorReads(dataSource);
  }

  /**
   * Books the entry inside the caller's transaction, exactly once per swap (unique swap_id),
   * then makes a payout due if the balance reached the threshold. The organization row is
   * locked first so two pollers booking for one org cannot both see the same balance.
   */
  async bookWithin(manager: EntityManager, entry: NewEarningsEntry): Promise<BookingResult> {
    const org = await manager.query<
      { payout_network: PayoutNetwork; payout_address: string | null }[]
    >(`SELECT payout_network, payout_address FROM organizations WHERE id = $1 FOR UPDATE`, [
      entry.organizationId,
    ]);
    const inserted = await manager.query<unknown[]>(
      `INSERT INTO earnings_ledger
         (organization_id, swap_id, fee_percent, amount_actual_from, from_ticker, usd_price,
          amount_usd)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (swap_id) DO NOTHING
       RETURNING id`,
      [
        entry.organizationId,
        entry.swapId,
        entry.feePercent,
        entry.amountActualFrom,
        entry.from,
        entry.usdPrice,
        entry.amountUsd,
      ],
    );
    if (inserted.length === 0) {
      return { earningsBooked: false, payoutCreated: false };
    }
    const balance = await this.balanceWithin(manager, entry.organizationId);
    if (!reachesPayoutThreshold(balance)) {
      return { earningsBooked: true, payoutCreated: false };
    }
    await manager.query(
      `INSERT INTO payouts (organization_id, amount_usd, asset, network, address, status)
       VALUES ($1, $2, 'usdt', $3, $4, 'due')`,
      [
        entry.organizationId,
        balance,
        org[0]?.payout_network ?? 'trc20',
        org[0]?.payout_address ?? null,
      ],
    );
    return { earningsBooked: true, payoutCreated: true };
  }

  /**
   * A step queueing finished swaps' earnings in their write-back's statement, each only if its
   * swap is among the ids the step `written` returns.
   */
  addPendingWithin(statement: BatchStatement, pending: PendingEarnings[], written: string): void {
    if (pending.length === 0) {
      return;
    }
    const rows = pending.map((entry) => ({
      swap_id: entry.swapId,
      organization_id: entry.organizationId,
      fee_percent: entry.feePercent,
      amount_actual_from: entry.amountActualFrom,
      from_ticker: entry.from,
    }));
    statement.step(
      'pending_earnings',
      `INSERT INTO earnings_pending
         (swap_id, organization_id, fee_percent, amount_actual_from, from_ticker)
       SELECT p.swap_id, p.organization_id, p.fee_percent, p.amount_actual_from, p.from_ticker
         FROM json_to_recordset(${statement.param(JSON.stringify(rows))}::json) AS p(
                swap_id text, organization_id uuid, fee_percent numeric,
                amount_actual_from numeric, from_ticker text)
         JOIN ${written} w ON w.id = p.swap_id
       ON CONFLICT (swap_id) DO NOTHING
       RETURNING swap_id`,
    );
  }

  /** How long the oldest queued earnings have waited to be booked, in ms; 0 when none wait. */
  async oldestPendingAgeMs(): Promise<number> {
    const [row] = await this.dataSource.query<{ age_ms: number | null }[]>(
      `SELECT EXTRACT(EPOCH FROM now() - min(created_at))::float8 * 1000 AS age_ms
         FROM earnings_pending`,
    );
    return Math.max(0, row?.age_ms ?? 0);
  }

  /** Leases up to `limit` queued earnings to `owner`, oldest first; a dead poller's come back. */
  async claimPending(owner: string, limit: number, leaseMs: number): Promise<PendingEarnings[]> {
    const rows = await this.dataSource.query<[PendingRow[], number] | PendingRow[]>(
      `UPDATE earnings_pending p
          SET lease_owner = $1, lease_until = now() + $3::float8 * interval '1 millisecond'
         FROM (SELECT swap_id FROM earnings_pending
                WHERE lease_until IS NULL OR lease_until < now()
                ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED) due
        WHERE p.swap_id = due.swap_id
       RETURNING p.swap_id, p.organization_id, p.fee_percent, p.amount_actual_from, p.from_ticker`,
      [owner, limit, leaseMs],
    );
    const list = Array.isArray(rows[0]) ? rows[0] : (rows as PendingRow[]);
    return list.map((row) => ({
      swapId: row.swap_id,
      organizationId: row.organization_id,
      feePercent: row.fee_percent,
      amountActualFrom: row.amount_actual_from,
      from: row.from_ticker,
    }));
  }

  /** Books queued earnings at their price and takes them off the queue, in one transaction. */
  async bookPending(owner: string, entry: NewEarningsEntry): Promise<BookingResult> {
    return this.dataSource.transaction(async (manager) => {
      const taken = await manager.query<[unknown[], number] | unknown[]>(
        `DELETE FROM earnings_pending WHERE swap_id = $1 AND lease_owner = $2 RETURNING swap_id`,
        [entry.swapId, owner],
      );
      const gone = Array.isArray(taken[0]) ? taken[0] : taken;
      if (gone.length === 0) {
        return { earningsBooked: false, payoutCreated: false };
      }
      return this.bookWithin(manager, entry);
    });
  }

  /** Gives queued earnings back without booking them (their price could not be read). */
  async releasePending(owner: string, swapIds: string[]): Promise<void> {
    await this.dataSource.query(
      `UPDATE earnings_pending SET lease_owner = NULL, lease_until = NULL
        WHERE swap_id = ANY($2) AND lease_owner = $1`,
      [owner, swapIds],
    );
  }

  /** Earned and not yet assigned to a payout, in USD. */
  balance(organizationId: string): Promise<string> {
    return this.balanceWithin(this.dataSource.manager, organizationId);
  }

  async organizationExists(organizationId: string): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(
      `SELECT 1 FROM organizations WHERE id = $1`,
      [organizationId],
    );
    return rows.length > 0;
  }

  /** Newest first. */
  async entriesForOrg(organizationId: string): Promise<EarningsEntryEntity[]> {
    const rows = await this.dataSource.query<Record<string, unknown>[]>(
      `SELECT ${this.ledgerColumns.list} FROM earnings_ledger
        WHERE organization_id = $1 ORDER BY created_at DESC, id ASC`,
      [organizationId],
    );
    return rows.map((row) => this.ledgerColumns.toEntity(row));
  }

  /** Newest first. */
  async payoutsForOrg(organizationId: string): Promise<PayoutEntity[]> {
    const rows = await this.dataSource.query<Record<string, unknown>[]>(
      `SELECT ${this.payoutColumns.list} FROM payouts
        WHERE organization_id = $1 ORDER BY created_at DESC, id ASC`,
      [organizationId],
    );
    return rows.map((row) => this.payoutColumns.toEntity(row));
  }

  /** The organization's totals in one read. */
  async totals(organizationId: string): Promise<EarningsTotals> {
    const [row] = await this.dataSource.query<
      {
        earned: string;
        assigned: string;
        payable: string;
        paid: string;
        awaiting: number;
      }[]
    >(
      `SELECT l.earned::text AS earned, p.assigned::text AS assigned,
              p.payable::text AS payable, p.paid::text AS paid, q.awaiting
         FROM (SELECT COALESCE(sum(amount_usd), 0) AS earned
                 FROM earnings_ledger WHERE organization_id = $1) l,
              (SELECT COALESCE(sum(amount_usd), 0) AS assigned,
                      COALESCE(sum(amount_usd) FILTER (WHERE status = 'due'), 0) AS payable,
                      COALESCE(sum(amount_usd) FILTER (WHERE status = 'paid'), 0) AS paid
                 FROM payouts WHERE organization_id = $1) p,
              (SELECT count(*)::int AS awaiting
                 FROM earnings_pending WHERE organization_id = $1) q`,
      [organizationId],
    );
    return {
      earnedUsd: row.earned,
      accruedUsd: new Decimal(row.earned).minus(row.assigned).toFixed(),
      payableUsd: row.payable,
      paidUsd: row.paid,
      awaitingPrice: row.awaiting,
    };
  }

  /** One keyset page of the organization's ledger, newest first. */
  async ledgerPage(
    organizationId: string,
    page: KeysetPageRequest,
  ): Promise<KeysetPage<LedgerEntryView>> {
    const values: unknown[] = [organizationId];
    const keyset = keysetClauses('e', page, 2);
    values.push(...keyset.values, page.limit + 1);
    const rows = await this.dataSource.query<(LedgerEntryView & { keysetAt: string })[]>(
      `SELECT ${LEDGER_VIEW}, ${keysetAtSql('e')} AS "keysetAt" FROM earnings_ledger e
        WHERE e.organization_id = $1 ${keyset.condition ? `AND ${keyset.condition}` : ''}
        ${keyset.order} LIMIT $${values.length}`,
      values,
    );
    const result = keysetPage(rows, page, (row) => ({ at: row.keysetAt, id: row.id }));
    return { ...result, items: result.items.map(({ keysetAt: _, ...entry }) => entry) };
  }

  /** The whole ledger, newest first, in batches from one snapshot (for an export). */
  exportLedger(
    organizationId: string,
    batchSize: number,
  ): AsyncGenerator<LedgerEntryView[], void, undefined> {
    return this.cursors.batches<LedgerEntryView>(
      `SELECT ${LEDGER_VIEW} FROM earnings_ledger e WHERE e.organization_id = $1
        ORDER BY e.created_at DESC, e.id DESC`,
      [organizationId],
      batchSize,
    );
  }

  /** The organization's payouts, newest first. */
  async payoutViews(organizationId: string): Promise<PayoutView[]> {
    return this.dataSource.query<PayoutView[]>(
      `SELECT id, amount_usd::text AS "amountUsd", asset, network, address, status,
              to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
         FROM payouts WHERE organization_id = $1 ORDER BY created_at DESC, id DESC`,
      [organizationId],
    );
  }

  /**
   * Points the organization's due payouts at its new payout address, in the caller's
   * transaction (the one changing the address). Answers how many were due.
   */
  async redirectDuePayoutsWithin(
    manager: EntityManager,
    organizationId: string,
    address: string,
    network: PayoutNetwork,
  ): Promise<number> {
    const rows = rowsOf(
      await manager.query<[unknown[], number]>(
        `UPDATE payouts SET address = $2, network = $3
          WHERE organization_id = $1 AND status = 'due' RETURNING id`,
        [organizationId, address, network],
      ),
    );
    return rows.length;
  }

  private async balanceWithin(manager: EntityManager, organizationId: string): Promise<string> {
    const [row] = await manager.query<{ balance: string }[]>(
      `SELECT ((SELECT COALESCE(sum(amount_usd), 0) FROM earnings_ledger WHERE organization_id = $1)
             - (SELECT COALESCE(sum(amount_usd), 0) FROM payouts WHERE organization_id = $1)
             )::text AS balance`,
      [organizationId],
    );
    return row?.balance ?? '0';
  }
}
