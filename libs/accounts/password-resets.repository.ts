import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '#app/persistence';

@Injectable()
export class PasswordResetsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async create(userId: string, tokenHash: Buffer, now: Date, expiresAt: Date): Promise<void> {
    await queryRows(
      this.db,
      `INSERT INTO dashboard_password_resets (user_id, token_hash, created_at, expires_at)
       VALUES ($1, $2, $3, $4)`,
      [userId, tokenHash, now, expiresAt],
    );
  }

  /** The user of a reset link that is still open at `now` (unused, not expired). */
  async findOpenUser(tokenHash: Buffer, now: Date): Promise<string | null> {
    const rows = await queryRows<{ user_id: string }>(
      this.db,
      `SELECT user_id FROM dashboard_password_resets
          WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2`,
      [tokenHash, now],
    );
    return rows[0]?.user_id ?? null;
  }

  /** Uses the link, atomically (single use), and closes the user's other open links. */
  async consume(tokenHash: Buffer, now: Date): Promise<string | null> {
    const rows = await queryRows<{ user_id: string }>(
      this.db,
      `UPDATE dashboard_password_resets SET used_at = $2
          WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id`,
      [tokenHash, now],
    );
    const userId = rows[0]?.user_id ?? null;
    if (userId !== null) {
      await queryRows(
        this.db,
        `UPDATE dashboard_password_resets SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL`,
        [userId, now],
      );
    }
    return userId;
  }
}
