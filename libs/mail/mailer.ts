import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Mail } from './mail.js';
import { MailOutboxRepository } from './mail-outbox.repository.js';

/**
 * Mail from the api and the CLI: each mail is written to the outbox and the caller goes on; the
 * poller sends it (`MailDispatcher`), retrying while the mail server is away. So no request waits
 * for SMTP, and none fails because SMTP does.
 */
@Injectable()
export class Mailer {
  private readonly logger = new Logger(Mailer.name);

  constructor(private readonly outbox: MailOutboxRepository) {}

  /** Queues the mail, in the caller's transaction when one is given. */
  send(mail: Mail, runner?: Pick<EntityManager, 'query'>): Promise<void> {
    return this.outbox.enqueue(mail, runner);
  }

  /** Queues and logs a failure instead of throwing: for notices that must not undo the action. */
  async sendQuietly(mail: Mail): Promise<void> {
    try {
      await this.send(mail);
    } catch (error: unknown) {
      this.logger.warn(
        { subject: mail.subject, err: error instanceof Error ? error.message : String(error) },
        'mail not queued',
      );
    }
  }
}
