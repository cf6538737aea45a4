import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A completed idempotency key keeps the answer its creation gave, so a replay answers it again
 * from the key alone (and Redis can hold the same answer). Keys completed before this migration
 * keep `response` null; their replays read the swap, until their 24 h window ends.
 */
export class IdempotencyResponses1765100000000 implements MigrationInterface {
  name = 'IdempotencyResponses1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys ADD COLUMN response jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys DROP COLUMN response`);
  }
}
