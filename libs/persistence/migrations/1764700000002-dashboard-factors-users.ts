import { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = [
  'dashboard_totp',
  'dashboard_recovery_codes',
  'dashboard_passkeys',
  'dashboard_webauthn_challenges',
  'dashboard_pending_sign_ins',
];

/** The second factors' tables now that dashboard users exist: a user's factors go with them. */
export class DashboardFactorsUsers1764700000002 implements MigrationInterface {
  name = 'DashboardFactorsUsers1764700000002';

  async up(q: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await q.query(`DELETE FROM ${table} t
        WHERE t.user_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM dashboard_users u WHERE u.id = t.user_id)`);
      await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_user_fk
        FOREIGN KEY (user_id) REFERENCES dashboard_users(id) ON DELETE CASCADE`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_user_fk`);
    }
  }
}
