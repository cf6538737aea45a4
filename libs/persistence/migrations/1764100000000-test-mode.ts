import { MigrationInterface, QueryRunner } from 'typeorm';

const TERMINAL = `('finished','failed','refunded','overdue','expired')`;
const ACTIVE = `status NOT IN ${TERMINAL} AND provider_transaction_id IS NOT NULL`;

/**
 * Test mode (docs/decisions.md, "Test mode"): a credential is live or test, and so is every swap
 * and fixed rate it makes; the two never see each other. Each mode has its own provider, so a
 * provider transaction id is unique within a mode only, and the poller's lanes read one mode each.
 */
export class TestMode1764100000000 implements MigrationInterface {
  name = 'TestMode1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE credentials ADD COLUMN mode varchar(8) NOT NULL DEFAULT 'live'
         CHECK (mode IN ('live','test'))`,
    );
    await q.query(`ALTER TABLE swaps ADD COLUMN livemode boolean NOT NULL DEFAULT true`);
    await q.query(`ALTER TABLE fixed_rates ADD COLUMN livemode boolean NOT NULL DEFAULT true`);
    await q.query(`DROP INDEX swaps_org_created_idx`);
    await q.query(
      `CREATE INDEX swaps_org_created_idx ON swaps
         (organization_id, livemode, created_at DESC, id DESC)`,
    );
    await q.query(`ALTER TABLE swaps DROP CONSTRAINT swaps_provider_transaction_id_key`);
    await q.query(`DROP INDEX swaps_provider_transaction_idx`);
    await q.query(
      `CREATE UNIQUE INDEX swaps_provider_transaction_uq ON swaps
         (provider_transaction_id, livemode)`,
    );
    await q.query(`DROP INDEX swaps_unseen_idx`);
    await q.query(
      `CREATE INDEX swaps_unseen_idx ON swaps (livemode, last_seen_at NULLS FIRST) WHERE ${ACTIVE}`,
    );
    await q.query(`DROP INDEX swaps_active_created_idx`);
    await q.query(
      `CREATE INDEX swaps_active_created_idx ON swaps (livemode, created_at) WHERE ${ACTIVE}`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX swaps_active_created_idx`);
    await q.query(`CREATE INDEX swaps_active_created_idx ON swaps (created_at) WHERE ${ACTIVE}`);
    await q.query(`DROP INDEX swaps_unseen_idx`);
    await q.query(
      `CREATE INDEX swaps_unseen_idx ON swaps (last_seen_at NULLS FIRST) WHERE ${ACTIVE}`,
    );
    await q.query(`DROP INDEX swaps_provider_transaction_uq`);
    await q.query(
      `CREATE INDEX swaps_provider_transaction_idx ON swaps (provider_transaction_id)
        WHERE provider_transaction_id IS NOT NULL`,
    );
    await q.query(
      `ALTER TABLE swaps ADD CONSTRAINT swaps_provider_transaction_id_key
         UNIQUE (provider_transaction_id)`,
    );
    await q.query(`DROP INDEX swaps_org_created_idx`);
    await q.query(
      `CREATE INDEX swaps_org_created_idx ON swaps (organization_id, created_at DESC, id DESC)`,
    );
    await q.query(`ALTER TABLE fixed_rates DROP COLUMN livemode`);
    await q.query(`ALTER TABLE swaps DROP COLUMN livemode`);
    await q.query(`ALTER TABLE credentials DROP COLUMN mode`);
  }
}
