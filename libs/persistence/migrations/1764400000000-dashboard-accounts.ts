import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The partner dashboard's accounts: users of one organization each, their server-side sessions,
 * invitations and password resets. Only SHA-256 digests of session ids and link tokens are kept,
 * so a read of these tables gives nobody a way in. Audit entries name the organization they
 * concern, so an organization can read its own log.
 */
export class DashboardAccounts1764400000000 implements MigrationInterface {
  name = 'DashboardAccounts1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dashboard_users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        email varchar(254) NOT NULL,
        password_hash text NOT NULL,
        role varchar(16) NOT NULL CHECK (role IN ('owner','developer','viewer')),
        disabled_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX dashboard_users_email_uq ON dashboard_users (lower(email))`);
    await q.query(`CREATE INDEX dashboard_users_org_idx ON dashboard_users (organization_id)`);
    await q.query(`
      CREATE TABLE dashboard_sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash bytea NOT NULL UNIQUE,
        user_id uuid NOT NULL REFERENCES dashboard_users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        reauthenticated_at timestamptz,
        mode varchar(8) NOT NULL CHECK (mode IN ('live','test')),
        csrf_secret varchar(64) NOT NULL,
        ip varchar(64) NOT NULL,
        user_agent varchar(512) NOT NULL
      )`);
    await q.query(`CREATE INDEX dashboard_sessions_user_idx ON dashboard_sessions (user_id)`);
    await q.query(`CREATE INDEX dashboard_sessions_expires_idx ON dashboard_sessions (expires_at)`);
    await q.query(`
      CREATE TABLE dashboard_invitations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        email varchar(254) NOT NULL,
        role varchar(16) NOT NULL CHECK (role IN ('owner','developer','viewer')),
        token_hash bytea NOT NULL UNIQUE,
        invited_by varchar(128) NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX dashboard_invitations_org_idx ON dashboard_invitations (organization_id)`,
    );
    await q.query(`
      CREATE TABLE dashboard_password_resets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES dashboard_users(id) ON DELETE CASCADE,
        token_hash bytea NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX dashboard_password_resets_user_idx ON dashboard_password_resets (user_id)`,
    );
    await q.query(`ALTER TABLE audit_log ADD COLUMN organization_id uuid`);
    await q.query(
      `CREATE INDEX audit_log_org_idx ON audit_log (organization_id, id DESC)
         WHERE organization_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX audit_log_org_idx`);
    await q.query(`ALTER TABLE audit_log DROP COLUMN organization_id`);
    await q.query(`DROP TABLE dashboard_password_resets`);
    await q.query(`DROP TABLE dashboard_invitations`);
    await q.query(`DROP TABLE dashboard_sessions`);
    await q.query(`DROP TABLE dashboard_users`);
  }
}
