import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { type PayoutNetwork, reachesPayoutThreshold } from '#app/domain';
import { EarningsEntryEntity, EntityColumns, PayoutEntity } from '#app/persistence';

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

export interface BookingResult {
  /** False when the swap was booked already (the ledger is unique per swap). */
  earningsBooked: boolean;
  payoutCreated: boolean;
}

/**
 * The earnings aggregate: the ledger, payouts and the balance between them; the only writer of
 * `earnings_ledger` and `payouts`. Plain SQL, since booking locks the organization row and
 * must run inside the poller's transaction.
 */
@Injectable()
export class EarningsRepository {
  private readonly ledgerColumns: EntityColumns<EarningsEntryEntity>;
  private readonly payoutColumns: EntityColumns<PayoutEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.ledgerColumns = new EntityColumns(dataSource, EarningsEntryEntity);
    this.payoutColumns = new EntityColumns(dataSource, PayoutEntity);
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
