import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fair webhook delivery: each endpoint has a circuit (`timeouts_in_row`, `circuit_open_until`)
 * so a receiver that keeps timing out waits without holding sending slots; the claim counts an
 * endpoint's sends in flight through the small index of leased rows, and takes each endpoint's
 * oldest due deliveries through the per-endpoint index.
 */
export class WebhookFairness1764800000000 implements MigrationInterface {
  name = 'WebhookFairness1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE webhook_endpoints
         ADD COLUMN timeouts_in_row integer NOT NULL DEFAULT 0,
         ADD COLUMN circuit_open_until timestamptz`,
    );
    await q.query(
      `CREATE INDEX webhook_deliveries_endpoint_due_idx ON webhook_deliveries
         (endpoint_id, next_attempt_at) WHERE status = 'pending'`,
    );
    await q.query(
      `CREATE INDEX webhook_deliveries_leased_idx ON webhook_deliveries (endpoint_id, lease_expires_at)
         WHERE status = 'pending' AND lease_owner IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_deliveries_leased_idx`);
    await q.query(`DROP INDEX webhook_deliveries_endpoint_due_idx`);
    await q.query(
      `ALTER TABLE webhook_endpoints DROP COLUMN circuit_open_until, DROP COLUMN timeouts_in_row`,
    );
  }
}
