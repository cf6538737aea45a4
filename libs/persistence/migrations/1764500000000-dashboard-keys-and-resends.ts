import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dashboard's API keys and webhook pages. A credential gets a name, the time it was last
 * used (written at most once a minute) and an expiry, set on the old credential when it is
 * rolled: authentication refuses it from then on. A webhook delivery may be a resend asked for
 * by a dashboard user (`resent_by`): the first delivery of an event to an endpoint stays unique,
 * and at most one delivery of an event to an endpoint is pending at a time. An event's page
 * reads its deliveries (by event) with each one's last attempt (by delivery).
 */
export class DashboardKeysAndResends1764500000000 implements MigrationInterface {
  name = 'DashboardKeysAndResends1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE credentials ADD COLUMN name varchar(100)`);
    await q.query(`ALTER TABLE credentials ADD COLUMN last_used_at timestamptz`);
    await q.query(`ALTER TABLE credentials ADD COLUMN expires_at timestamptz`);
    await q.query(
      `CREATE INDEX credentials_org_mode_idx ON credentials (organization_id, mode, created_at)`,
    );

    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN resent_by varchar(128)`);
    await q.query(
      `ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_endpoint_id_event_id_key`,
    );
    await q.query(
      `CREATE UNIQUE INDEX webhook_deliveries_first_uq ON webhook_deliveries (endpoint_id, event_id)
        WHERE resent_by IS NULL`,
    );
    await q.query(
      `CREATE UNIQUE INDEX webhook_deliveries_pending_uq ON webhook_deliveries (endpoint_id, event_id)
        WHERE status = 'pending'`,
    );
    await q.query(`CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id)`);
    await q.query(
      `CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, id DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_attempts_delivery_idx`);
    await q.query(`DROP INDEX webhook_deliveries_event_idx`);
    await q.query(`DROP INDEX webhook_deliveries_pending_uq`);
    await q.query(`DROP INDEX webhook_deliveries_first_uq`);
    await q.query(`DELETE FROM webhook_deliveries WHERE resent_by IS NOT NULL`);
    await q.query(
      `ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_endpoint_id_event_id_key
         UNIQUE (endpoint_id, event_id)`,
    );
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN resent_by`);
    await q.query(`DROP INDEX credentials_org_mode_idx`);
    await q.query(`ALTER TABLE credentials DROP COLUMN expires_at`);
    await q.query(`ALTER TABLE credentials DROP COLUMN last_used_at`);
    await q.query(`ALTER TABLE credentials DROP COLUMN name`);
  }
}
