import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { queryRows } from '#app/persistence';

/** The only writer of `dashboard_recovery_codes`. */
@Injectable()
export class RecoveryCodesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The user's codes become exactly these, in one transaction. */
  async replace(userId: string, digests: string[], now: Date): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await queryRows(manager, `DELETE FROM dashboard_recovery_codes WHERE user_id = $1`, [userId]);
      await queryRows(
        manager,
        `INSERT INTO dashboard_recovery_codes (user_id, code_digest, used_at, created_at)
         SELECT $1, digest, NULL, $3 FROM unnest($2::text[]) AS digest`,
        [userId, digests, now],
      );
    });
  }

  /** Marks the unused code with this digest used; false when there is none. Atomic. */
  async use(userId: string, codeDigest: string, now: Date): Promise<boolean> {
    const rows = await queryRows(
      this.dataSource,
      `UPDATE dashboard_recovery_codes SET used_at = $3
        WHERE user_id = $1 AND code_digest = $2 AND used_at IS NULL RETURNING id`,
      [userId, codeDigest, now],
    );
    return rows.length === 1;
  }

  async countUnused(userId: string): Promise<number> {
    const [row] = await queryRows<{ count: number }>(
      this.dataSource,
      `SELECT count(*)::int AS count FROM dashboard_recovery_codes
        WHERE user_id = $1 AND used_at IS NULL`,
      [userId],
    );
    return row.count;
  }

  async deleteAll(userId: string): Promise<void> {
    await queryRows(this.dataSource, `DELETE FROM dashboard_recovery_codes WHERE user_id = $1`, [
      userId,
    ]);
  }
}
