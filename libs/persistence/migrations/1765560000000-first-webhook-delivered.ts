import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * "First webhook delivered" on the dashboard's "Get started" checklist is a timestamp on the
 * organization, written at the first delivery, as the first test quote is: read from the
 * deliveries, the step went back to "Not yet" once they were purged after 30 days or their
 * endpoint was deleted. Organizations with a delivery on record keep the step done.
 */
export class FirstWebhookDelivered1765560000000 implements MigrationInterface {
  name = 'FirstWebhookDelivered1765560000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE organizations ADD COLUMN first_webhook_delivered_at timestamptz`);
    await q.query(
      `UPDATE organizations o SET first_webhook_delivered_at = first.at
         FROM (SELECT e.organization_id, min(coalesce(d.finished_at, d.created_at)) AS at
                 FROM webhook_deliveries d
                 JOIN webhook_endpoints e ON e.id = d.endpoint_id
                WHERE d.status = 'delivered'
                GROUP BY e.organization_id) first
        WHERE o.id = first.organization_id`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE organizations DROP COLUMN first_webhook_delivered_at`);
  }
}
