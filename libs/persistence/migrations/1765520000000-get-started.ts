import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dashboard's "Get started" checklist (docs/decisions.md, "Dashboard: Get started"): when an
 * organization first got a test quote (quotes are not stored otherwise), and an index of test
 * swaps by organization, so "a first test swap" is one index probe even for an organization with
 * millions of live swaps. On a large `swaps` table, create the index beforehand with
 * `CREATE INDEX CONCURRENTLY` under the same name.
 */
export class GetStarted1765520000000 implements MigrationInterface {
  name = 'GetStarted1765520000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE organizations ADD COLUMN first_test_quote_at timestamptz`);
    await q.query(
      `CREATE INDEX IF NOT EXISTS swaps_org_test_idx ON swaps (organization_id) WHERE NOT livemode`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX swaps_org_test_idx`);
    await q.query(`ALTER TABLE organizations DROP COLUMN first_test_quote_at`);
  }
}
