import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DashboardPasskeyEntity, EntityColumns, queryRows } from '#app/persistence';

/** The only writer of `dashboard_passkeys`. Every lookup but the sign-in one takes the user. */
@Injectable()
export class PasskeysRepository {
  private readonly columns: EntityColumns<DashboardPasskeyEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.columns = new EntityColumns(dataSource, DashboardPasskeyEntity);
  }

  listForUser(userId: string): Promise<DashboardPasskeyEntity[]> {
    return this.columns.read(
      this.dataSource,
      `SELECT ${this.columns.list} FROM dashboard_passkeys WHERE user_id = $1
        ORDER BY created_at, id`,
      [userId],
    );
  }

  async countForUser(userId: string): Promise<number> {
    const [row] = await queryRows<{ count: number }>(
      this.dataSource,
      `SELECT count(*)::int AS count FROM dashboard_passkeys WHERE user_id = $1`,
      [userId],
    );
    return row.count;
  }

  /** By credential id alone: a passkey sign-in learns the user from the passkey. */
  findById(id: string): Promise<DashboardPasskeyEntity | null> {
    return this.columns.readOne(
      this.dataSource,
      `SELECT ${this.columns.list} FROM dashboard_passkeys WHERE id = $1`,
      [id],
    );
  }

  /** False when the credential id is already registered (to anyone). */
  async insert(passkey: DashboardPasskeyEntity): Promise<boolean> {
    const rows = await queryRows(
      this.dataSource,
      `INSERT INTO dashboard_passkeys (${this.columns.list}) VALUES (${this.columns.placeholders()})
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      this.columns.values(passkey),
    );
    return rows.length === 1;
  }

  async recordUse(id: string, counter: number, now: Date): Promise<void> {
    await queryRows(
      this.dataSource,
      `UPDATE dashboard_passkeys SET counter = $2, last_used_at = $3 WHERE id = $1`,
      [id, counter, now],
    );
  }

  async rename(userId: string, id: string, name: string): Promise<boolean> {
    const rows = await queryRows(
      this.dataSource,
      `UPDATE dashboard_passkeys SET name = $3 WHERE id = $1 AND user_id = $2 RETURNING id`,
      [id, userId, name],
    );
    return rows.length === 1;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const rows = await queryRows(
      this.dataSource,
      `DELETE FROM dashboard_passkeys WHERE id = $1 AND user_id = $2 RETURNING id`,
      [id, userId],
    );
    return rows.length === 1;
  }
}
