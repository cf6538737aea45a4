import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DashboardTotpEntity, EntityColumns, queryRows } from '#app/persistence';

/**
 * The only writer of `dashboard_totp`. Plain SQL: replacing a pending secret must never touch a
 * confirmed one, and taking a time step is a guarded write.
 */
@Injectable()
export class TotpRepository {
  private readonly columns: EntityColumns<DashboardTotpEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.columns = new EntityColumns(dataSource, DashboardTotpEntity);
  }

  find(userId: string): Promise<DashboardTotpEntity | null> {
    return this.columns.readOne(
      this.dataSource,
      `SELECT ${this.columns.list} FROM dashboard_totp WHERE user_id = $1`,
      [userId],
    );
  }

  /**
   * Stores a new unconfirmed secret in place of any unconfirmed one and answers the row as it
   * is then: with TOTP already on, the confirmed row, untouched.
   */
  async savePending(
    userId: string,
    secretCiphertext: string,
    now: Date,
  ): Promise<DashboardTotpEntity> {
    await queryRows(
      this.dataSource,
      `INSERT INTO dashboard_totp (user_id, secret_ciphertext, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE
          SET secret_ciphertext = excluded.secret_ciphertext, created_at = excluded.created_at,
              last_used_step = NULL
        WHERE dashboard_totp.confirmed_at IS NULL`,
      [userId, secretCiphertext, now],
    );
    const stored = await this.find(userId);
    if (stored === null) {
      throw new Error('TOTP secret vanished after it was stored');
    }
    return stored;
  }

  /**
   * Takes `step` as the last used time step if it is later than the stored one: the one write
   * that makes a code single use, atomic so two requests with one code cannot both pass.
   * With `confirm` it also turns an unconfirmed secret on (and only an unconfirmed one).
   */
  async claimStep(userId: string, step: number, confirm: boolean, now: Date): Promise<boolean> {
    const rows = await queryRows(
      this.dataSource,
      `UPDATE dashboard_totp
          SET last_used_step = $2,
              confirmed_at = CASE WHEN $3::boolean THEN $4::timestamptz ELSE confirmed_at END
        WHERE user_id = $1
          AND (confirmed_at IS NULL) = $3::boolean
          AND (last_used_step IS NULL OR last_used_step < $2)
        RETURNING user_id`,
      [userId, step, confirm, now],
    );
    return rows.length === 1;
  }

  async delete(userId: string): Promise<boolean> {
    const rows = await queryRows(
      this.dataSource,
      `DELETE FROM dashboard_totp WHERE user_id = $1 RETURNING user_id`,
      [userId],
    );
    return rows.length === 1;
  }
}
