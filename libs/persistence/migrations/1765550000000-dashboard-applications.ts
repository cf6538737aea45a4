import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An application (sign-up) waits here until its address confirms it (docs/decisions.md,
 * "Dashboard mail and its doors"): the organization and its owner are created only from the link
 * mailed to the address, so the sign-up form answers the same whether the address has an account.
 * A confirmed application's row is deleted; expired ones go when the next application arrives.
 */
export class DashboardApplications1765550000000 implements MigrationInterface {
  name = 'DashboardApplications1765550000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dashboard_applications (
        id bigserial PRIMARY KEY,
        email varchar(254) NOT NULL,
        organization_name varchar(200) NOT NULL,
        fee_percent numeric NOT NULL CHECK (fee_percent >= 0 AND fee_percent <= 4),
        password_hash text NOT NULL,
        token_hash bytea NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await q.query(
      `CREATE INDEX dashboard_applications_expires_idx ON dashboard_applications (expires_at)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE dashboard_applications`);
  }
}
