import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DashboardPendingSignInEntity, EntityColumns, queryRows } from '#app/persistence';

/** The only writer of `dashboard_pending_sign_ins`. */
@Injectable()
export class PendingSignInsRepository {
  private readonly columns: EntityColumns<DashboardPendingSignInEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.columns = new EntityColumns(dataSource, DashboardPendingSignInEntity);
  }

  /** Stores the pending sign-in and drops the expired ones of everybody. */
  async insert(pending: DashboardPendingSignInEntity): Promise<void> {
    await queryRows(
      this.dataSource,
      `DELETE FROM dashboard_pending_sign_ins WHERE expires_at <= $1`,
      [pending.createdAt],
    );
    await queryRows(
      this.dataSource,
      `INSERT INTO dashboard_pending_sign_ins (${this.columns.list})
       VALUES (${this.columns.placeholders()})`,
      this.columns.values(pending),
    );
  }

  findLive(tokenHash: string, now: Date): Promise<DashboardPendingSignInEntity | null> {
    return this.columns.readOne(
      this.dataSource,
      `SELECT ${this.columns.list} FROM dashboard_pending_sign_ins
        WHERE token_hash = $1 AND expires_at > $2`,
      [tokenHash, now],
    );
  }

  /** Ends it; true for the one caller that did, so a pending sign-in completes once. */
  async delete(tokenHash: string): Promise<boolean> {
    const rows = await queryRows(
      this.dataSource,
      `DELETE FROM dashboard_pending_sign_ins WHERE token_hash = $1 RETURNING token_hash`,
      [tokenHash],
    );
    return rows.length === 1;
  }
}
