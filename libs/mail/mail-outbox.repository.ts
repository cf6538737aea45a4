import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { Mail } from './mail.js';

/** A mail taken from the outbox to send, leased to one sender until `leasedUntil`. */
export interface QueuedMail extends Mail {
  id: string;
  /** Tries so far, this one included. */
  attempts: number;
}

/** What waits in the outbox: how many mails, and how long the oldest has since it was queued. */
export interface MailBacklog {
  pending: number;
  oldestAgeSeconds: number;
}

interface QueuedRow {
  id: string;
  recipient: string;
  subject: string;
  body: string;
  link: string | null;
  attempts: number;
}

/**
 * `mail_outbox`: the api writes, the poller claims, sends and deletes (docs/decisions.md,
 * "Dashboard mail and its doors"). Plain SQL on the data source; the lib sits below
 * `persistence`'s helpers, so it unwraps TypeORM's `[rows, count]` itself.
 */
@Injectable()
export class MailOutboxRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Queues a mail, in the caller's transaction when one is given. */
  async enqueue(mail: Mail, runner: Pick<EntityManager, 'query'> = this.db): Promise<void> {
    await runner.query(
      `INSERT INTO mail_outbox (recipient, subject, body, link) VALUES ($1, $2, $3, $4)`,
      [mail.to, mail.subject, mail.text, mail.link ?? null],
    );
  }

  /**
   * Leases up to `limit` due mails, oldest first, for `leaseMs`: `SKIP LOCKED`, so pollers
   * claiming at once take different mails; a lease that ran out (a dead poller) is claimable.
   */
  async claimDue(now: Date, leaseMs: number, limit: number): Promise<QueuedMail[]> {
    const result = await this.db.query<[QueuedRow[], number]>(
      `UPDATE mail_outbox m SET leased_until = $2, attempts = m.attempts + 1
         FROM (SELECT id FROM mail_outbox
                WHERE next_attempt_at <= $1 AND (leased_until IS NULL OR leased_until <= $1)
                ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED) due
        WHERE m.id = due.id
        RETURNING m.id, m.recipient, m.subject, m.body, m.link, m.attempts`,
      [now, new Date(now.getTime() + leaseMs), limit],
    );
    return result[0].map((row) => ({
      id: String(row.id),
      to: row.recipient,
      subject: row.subject,
      text: row.body,
      ...(row.link === null ? {} : { link: row.link }),
      attempts: row.attempts,
    }));
  }

  /** A sent mail leaves the outbox: its text may hold a live link. */
  async sent(id: string): Promise<void> {
    await this.db.query(`DELETE FROM mail_outbox WHERE id = $1`, [id]);
  }

  /** A failed try: the mail waits until `at`, with what went wrong (never its text). */
  async retryAt(id: string, at: Date, error: string): Promise<void> {
    await this.db.query(
      `UPDATE mail_outbox SET next_attempt_at = $2, leased_until = NULL, last_error = $3
        WHERE id = $1`,
      [id, at, error.slice(0, 500)],
    );
  }

  /** The outbox's size and the age of its oldest mail (sent mails leave it). */
  async backlog(): Promise<MailBacklog> {
    const [row] = await this.db.query<{ pending: number; age_seconds: number | null }[]>(
      `SELECT count(*)::int AS pending,
              EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS age_seconds
         FROM mail_outbox`,
    );
    return { pending: row.pending, oldestAgeSeconds: Math.max(0, row.age_seconds ?? 0) };
  }
}
