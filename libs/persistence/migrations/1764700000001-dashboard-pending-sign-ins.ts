import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A sign-in between its password and its second factor: the browser holds a random token (only
 * its SHA-256 is kept) naming the user whose password was right, for 5 minutes, used once.
 */
export class DashboardPendingSignIns1764700000001 implements MigrationInterface {
  name = 'DashboardPendingSignIns1764700000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dashboard_pending_sign_ins (
        token_hash char(64) PRIMARY KEY,
        user_id uuid NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await q.query(
      `CREATE INDEX dashboard_pending_sign_ins_expiry_idx ON dashboard_pending_sign_ins (expires_at)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE dashboard_pending_sign_ins`);
  }
}
