import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The partner dashboard's reads: an organization's swaps of one mode filtered by
 * status or by pair, each in the list's keyset order (newest first, id breaking ties), so a
 * filtered page is a short index range however many swaps the organization has; searches by
 * payin or payout address (compared case-insensitively, as addresses are pasted); a swap's
 * webhook deliveries found by event; the earnings ledger paged newest first.
 *
 * `IF NOT EXISTS` lets an operator with a large `swaps` table build these beforehand with
 * `CREATE INDEX CONCURRENTLY` under the same names (docs/decisions.md, "Dashboard reads").
 */
export class DashboardReads1764600000000 implements MigrationInterface {
  name = 'DashboardReads1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX IF NOT EXISTS swaps_org_status_created_idx ON swaps
         (organization_id, livemode, status, created_at DESC, id DESC)`,
    );
    await q.query(
      `CREATE INDEX IF NOT EXISTS swaps_org_pair_created_idx ON swaps
         (organization_id, livemode, from_ticker, to_ticker, created_at DESC, id DESC)`,
    );
    await q.query(
      `CREATE INDEX IF NOT EXISTS swaps_org_payin_idx ON swaps
         (organization_id, livemode, lower(payin_address))`,
    );
    await q.query(
      `CREATE INDEX IF NOT EXISTS swaps_org_payout_idx ON swaps
         (organization_id, livemode, lower(payout_address))`,
    );
    await q.query(
      `CREATE INDEX IF NOT EXISTS webhook_deliveries_event_idx ON webhook_deliveries (event_id)`,
    );
    await q.query(
      `CREATE INDEX IF NOT EXISTS webhook_attempts_delivery_idx ON webhook_attempts
         (delivery_id, attempt DESC)`,
    );
    await q.query(
      `CREATE INDEX IF NOT EXISTS earnings_org_created_idx ON earnings_ledger
         (organization_id, created_at DESC, id DESC)`,
    );
    await q.query(`DROP INDEX IF EXISTS earnings_org_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX earnings_org_idx ON earnings_ledger (organization_id, created_at)`);
    for (const index of [
      'earnings_org_created_idx',
      'webhook_attempts_delivery_idx',
      'webhook_deliveries_event_idx',
      'swaps_org_payout_idx',
      'swaps_org_payin_idx',
      'swaps_org_pair_created_idx',
      'swaps_org_status_created_idx',
    ]) {
      await q.query(`DROP INDEX ${index}`);
    }
  }
}
