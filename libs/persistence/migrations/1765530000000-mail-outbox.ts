import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Mail goes through an outbox (docs/decisions.md, "Dashboard mail and its doors"): the api writes
 * each mail here and answers; the poller sends what is due, leased so two pollers never send one
 * mail twice at once, and retries a failure with backoff. A sent mail's row is deleted, since
 * its text may carry a live link.
 */
export class MailOutbox1765530000000 implements MigrationInterface {
  name = 'MailOutbox1765530000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE mail_outbox (
        id bigserial PRIMARY KEY,
        recipient varchar(254) NOT NULL,
        subject varchar(300) NOT NULL,
        body text NOT NULL,
        link text,
        created_at timestamptz NOT NULL DEFAULT now(),
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        attempts integer NOT NULL DEFAULT 0,
        leased_until timestamptz,
        last_error varchar(500)
      )`);
    await q.query(`CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE mail_outbox`);
  }
}
