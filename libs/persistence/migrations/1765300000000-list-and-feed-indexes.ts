import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each filter of a list has an index in the list's order, so a page is a short index range and a
 * deep `offset` is counted in the index alone (docs/decisions.md, "Pagination" and "The event
 * feed"): a partner's swaps of one `partnerReferenceId` (replacing the index without the mode
 * and the order), and the event feed and the dashboard's event pages of one `type`.
 *
 * `IF NOT EXISTS`, as in the dashboard's indexes: an operator with large tables can build these
 * beforehand with `CREATE INDEX CONCURRENTLY` under the same names.
 */
export class ListAndFeedIndexes1765300000000 implements MigrationInterface {
  name = 'ListAndFeedIndexes1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX IF NOT EXISTS swaps_org_reference_created_idx ON swaps
         (organization_id, livemode, partner_reference_id, created_at DESC, id DESC)
         WHERE partner_reference_id IS NOT NULL`,
    );
    await q.query(`DROP INDEX IF EXISTS swaps_org_reference_idx`);
    await q.query(
      `CREATE INDEX IF NOT EXISTS events_feed_type_idx ON events
         (organization_id, livemode, type, xid, seq)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX events_feed_type_idx`);
    await q.query(`CREATE INDEX swaps_org_reference_idx ON swaps (organization_id, partner_reference_id)
      WHERE partner_reference_id IS NOT NULL`);
    await q.query(`DROP INDEX swaps_org_reference_created_idx`);
  }
}
