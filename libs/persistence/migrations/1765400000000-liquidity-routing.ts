import { MigrationInterface, QueryRunner } from 'typeorm';

const TERMINAL = `('finished','failed','refunded','overdue','expired')`;
const ACTIVE = `status NOT IN ${TERMINAL} AND provider_transaction_id IS NOT NULL`;

/**
 * Liquidity routing (docs/decisions.md, "Liquidity routing across providers"): every swap and fixed
 * rate names the provider it lives at (everything before this migration lived at Changelly, and
 * nothing new may leave it unnamed), and what that provider promised to pay out when it took the
 * swap (its fidelity compares the payout with it); a transaction id is unique per provider and mode; the
 * poller's lanes read one provider and mode each. Operators switch providers in and out of routing
 * (`provider_settings`), and each replica adds up what it saw of each provider per minute
 * (`provider_stats`).
 */
export class LiquidityRouting1765400000000 implements MigrationInterface {
  name = 'LiquidityRouting1765400000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['swaps', 'fixed_rates']) {
      await q.query(
        `ALTER TABLE ${table} ADD COLUMN provider varchar(16) NOT NULL DEFAULT 'changelly'`,
      );
      await q.query(`ALTER TABLE ${table} ALTER COLUMN provider DROP DEFAULT`);
    }
    await q.query(`ALTER TABLE swaps ADD COLUMN provider_expected_to numeric`);
    await q.query(`DROP INDEX swaps_provider_transaction_uq`);
    await q.query(
      `CREATE UNIQUE INDEX swaps_provider_transaction_uq ON swaps
         (provider, provider_transaction_id, livemode)`,
    );
    await q.query(`DROP INDEX swaps_unseen_idx`);
    await q.query(
      `CREATE INDEX swaps_unseen_idx ON swaps (provider, livemode, last_seen_at NULLS FIRST)
         WHERE ${ACTIVE}`,
    );
    await q.query(`DROP INDEX swaps_active_created_idx`);
    await q.query(
      `CREATE INDEX swaps_active_created_idx ON swaps (provider, livemode, created_at)
         WHERE ${ACTIVE}`,
    );
    await q.query(
      `CREATE INDEX swaps_provider_finished_idx ON swaps (provider, updated_at)
         WHERE status = 'finished' AND mode = 'float'`,
    );
    await q.query(`CREATE INDEX swaps_provider_created_idx ON swaps (provider, created_at)`);
    await q.query(
      `CREATE TABLE provider_settings (
         provider varchar(16) PRIMARY KEY,
         enabled boolean NOT NULL,
         updated_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    await q.query(
      `CREATE TABLE provider_stats (
         provider varchar(16) NOT NULL,
         livemode boolean NOT NULL,
         minute timestamptz NOT NULL,
         quotes integer NOT NULL DEFAULT 0,
         wins integer NOT NULL DEFAULT 0,
         errors integer NOT NULL DEFAULT 0,
         calls integer NOT NULL DEFAULT 0,
         latency_buckets integer[] NOT NULL,
         PRIMARY KEY (provider, livemode, minute)
       )`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE provider_stats`);
    await q.query(`DROP TABLE provider_settings`);
    await q.query(`DROP INDEX swaps_provider_created_idx`);
    await q.query(`DROP INDEX swaps_provider_finished_idx`);
    await q.query(`DROP INDEX swaps_active_created_idx`);
    await q.query(
      `CREATE INDEX swaps_active_created_idx ON swaps (livemode, created_at) WHERE ${ACTIVE}`,
    );
    await q.query(`DROP INDEX swaps_unseen_idx`);
    await q.query(
      `CREATE INDEX swaps_unseen_idx ON swaps (livemode, last_seen_at NULLS FIRST) WHERE ${ACTIVE}`,
    );
    await q.query(`DROP INDEX swaps_provider_transaction_uq`);
    await q.query(
      `CREATE UNIQUE INDEX swaps_provider_transaction_uq ON swaps
         (provider_transaction_id, livemode)`,
    );
    await q.query(`ALTER TABLE swaps DROP COLUMN provider_expected_to`);
    for (const table of ['swaps', 'fixed_rates']) {
      await q.query(`ALTER TABLE ${table} DROP COLUMN provider`);
    }
  }
}
