import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The upstream budget's slots in Postgres, used while Redis is unreachable (docs/decisions.md, "The
 * upstream budget").
 */
export class UpstreamSlots1763900000000 implements MigrationInterface {
  name = 'UpstreamSlots1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE upstream_slots (
        name varchar(128) PRIMARY KEY,
        tat timestamptz NOT NULL DEFAULT 'epoch'
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE upstream_slots`);
  }
}
