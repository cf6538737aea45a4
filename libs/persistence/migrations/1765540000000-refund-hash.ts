import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The refund's transaction hash, as the provider reports it once a refunded deposit went back:
 * the widget's "Refunded" screen shows it (docs/decisions.md, "The swap widget").
 */
export class RefundHash1765540000000 implements MigrationInterface {
  name = 'RefundHash1765540000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE swaps ADD COLUMN refund_hash varchar(256)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE swaps DROP COLUMN refund_hash`);
  }
}
