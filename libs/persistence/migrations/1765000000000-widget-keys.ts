import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The swap widget: publishable widget keys bound to exact origins, and the swaps made through
 * them with the hash of each swap's status token. A swap or idempotency key made through a
 * widget records the widget key's id as its creator (`credential_id`), so those columns no longer
 * point at `credentials` alone; `widget_swaps` keeps the typed link to the widget key.
 */
export class WidgetKeys1765000000000 implements MigrationInterface {
  name = 'WidgetKeys1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE widget_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        key varchar(48) NOT NULL UNIQUE,
        organization_id uuid NOT NULL REFERENCES organizations(id),
        mode varchar(8) NOT NULL CHECK (mode IN ('live','test')),
        name varchar(100) NOT NULL,
        allowed_origins text[] NOT NULL
          CHECK (cardinality(allowed_origins) BETWEEN 1 AND 20),
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX widget_keys_org_idx ON widget_keys (organization_id, created_at)`);
    await q.query(
      `CREATE INDEX widget_keys_origins_idx ON widget_keys USING gin (allowed_origins)
         WHERE revoked_at IS NULL`,
    );
    await q.query(`
      CREATE TABLE widget_swaps (
        swap_id varchar(64) PRIMARY KEY REFERENCES swaps(id),
        widget_key_id uuid NOT NULL REFERENCES widget_keys(id),
        status_token_hash varchar(64) NOT NULL
      )`);
    await q.query(`ALTER TABLE swaps DROP CONSTRAINT swaps_credential_id_fkey`);
    await q.query(
      `ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_credential_id_fkey`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DELETE FROM idempotency_keys WHERE credential_id NOT IN (SELECT id FROM credentials)`,
    );
    await q.query(
      `UPDATE swaps SET credential_id = NULL
        WHERE credential_id IS NOT NULL AND credential_id NOT IN (SELECT id FROM credentials)`,
    );
    await q.query(
      `ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_credential_id_fkey
         FOREIGN KEY (credential_id) REFERENCES credentials(id)`,
    );
    await q.query(
      `ALTER TABLE swaps ADD CONSTRAINT swaps_credential_id_fkey
         FOREIGN KEY (credential_id) REFERENCES credentials(id)`,
    );
    await q.query(`DROP TABLE widget_swaps`);
    await q.query(`DROP TABLE widget_keys`);
  }
}
