import { MigrationInterface, QueryRunner } from 'typeorm';

const TERMINAL = `('finished','failed','refunded','overdue','expired')`;

/**
 * Polling by listing (docs/decisions.md, "Status poller: cycles, pages, leases and failure fates"):
 * a swap remembers when its status was last confirmed; pollers share one cycle per lane, page by
 * page; a finished swap's earnings wait for their USD price in a queue of their own, so its status
 * never waits on pricing (docs/decisions.md, "USD valuation of earnings").
 */
export class PollCycles1764000000000 implements MigrationInterface {
  name = 'PollCycles1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE swaps ADD COLUMN last_seen_at timestamptz`);
    await q.query(
      `CREATE INDEX swaps_unseen_idx ON swaps (last_seen_at NULLS FIRST)
        WHERE status NOT IN ${TERMINAL} AND provider_transaction_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX swaps_provider_transaction_idx ON swaps (provider_transaction_id)
        WHERE provider_transaction_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX swaps_active_created_idx ON swaps (created_at)
        WHERE status NOT IN ${TERMINAL} AND provider_transaction_id IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE poll_cycles (
        lane varchar(16) PRIMARY KEY,
        number bigint NOT NULL,
        started_at timestamptz NOT NULL,
        since timestamptz,
        next_page integer NOT NULL DEFAULT 0,
        end_page integer,
        pages_done integer NOT NULL DEFAULT 0
      )`);
    await q.query(`
      CREATE TABLE earnings_pending (
        swap_id varchar(64) PRIMARY KEY REFERENCES swaps(id),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        fee_percent numeric NOT NULL,
        amount_actual_from numeric NOT NULL,
        from_ticker varchar(32) NOT NULL,
        lease_owner varchar(128),
        lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE earnings_pending`);
    await q.query(`DROP TABLE poll_cycles`);
    await q.query(`DROP INDEX swaps_active_created_idx`);
    await q.query(`DROP INDEX swaps_provider_transaction_idx`);
    await q.query(`DROP INDEX swaps_unseen_idx`);
    await q.query(`ALTER TABLE swaps DROP COLUMN last_seen_at`);
  }
}
