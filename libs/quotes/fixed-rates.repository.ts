import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { OwnerScope } from '#app/domain';
import { changedRows, EntityColumns, FixedRateEntity, queryRows } from '#app/persistence';

export type NewFixedRate = Omit<FixedRateEntity, 'usedAt' | 'swapId' | 'createdAt'>;

/**
 * The fixed-rate aggregate (docs/decisions.md, "Fixed rate ids"), the only writer of `fixed_rates`,
 * with the database clock wherever validity is decided.
 */
@Injectable()
export class FixedRatesRepository {
  private readonly columns: EntityColumns<FixedRateEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.columns = new EntityColumns(dataSource, FixedRateEntity);
  }

  async record(rate: NewFixedRate): Promise<FixedRateEntity> {
    const entity = Object.assign(new FixedRateEntity(), {
      ...rate,
      usedAt: null,
      swapId: null,
      createdAt: new Date(),
    });
    await queryRows(
      this.dataSource,
      `INSERT INTO fixed_rates (${this.columns.list}) VALUES (${this.columns.placeholders()})`,
      this.columns.values(entity),
    );
    return entity;
  }

  /** The owner's rate, whatever its state; another org's or mode's id reads as unknown. */
  findForOwner(id: string, owner: OwnerScope): Promise<FixedRateEntity | null> {
    return this.columns.readOne(
      this.dataSource,
      `SELECT ${this.columns.list} FROM fixed_rates
        WHERE id = $1 AND organization_id = $2 AND livemode = $3`,
      [id, owner.organizationId, owner.livemode],
    );
  }

  /**
   * Marks an unexpired, unused rate as used, atomically: of two racing swaps exactly one wins.
   * Returns false when the rate was unknown, expired or already used.
   */
  async consume(id: string, owner: OwnerScope, swapId: string): Promise<boolean> {
    const rows = await queryRows(
      this.dataSource,
      `UPDATE fixed_rates SET used_at = now(), swap_id = $4
        WHERE id = $1 AND organization_id = $2 AND livemode = $3
          AND used_at IS NULL AND expires_at > now()
        RETURNING id`,
      [id, owner.organizationId, owner.livemode, swapId],
    );
    return rows.length > 0;
  }

  /**
   * Rates that expired unused a day ago (housekeeping); used rates stay, a swap refers to them.
   * Returns how many were deleted.
   */
  async purgeExpired(): Promise<number> {
    return changedRows(
      this.dataSource,
      `DELETE FROM fixed_rates WHERE used_at IS NULL AND expires_at < now() - interval '1 day'`,
    );
  }
}
