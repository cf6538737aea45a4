import { Injectable, Logger } from '@nestjs/common';
import { InjectConfig, MAIL_DELIVERY_CONFIG, type MailDeliveryConfig } from '#app/config';
import { MailOutboxRepository } from './mail-outbox.repository.js';
import { MailMetrics } from './mail.metrics.js';
import { MailTransport } from './mail.transport.js';

/** The longest wait between two tries: a mail server back from an outage gets its mail soon. */
export const MAX_RETRY_MS = 10 * 60 * 1000;

/** The wait after the `attempts`-th failed try: base × 2^(attempts − 1), at most `MAX_RETRY_MS`. */
export function mailRetryDelayMs(baseMs: number, attempts: number): number {
  return Math.min(MAX_RETRY_MS, baseMs * 2 ** Math.min(30, Math.max(0, attempts - 1)));
}

/**
 * The poller's mail work: lease due mails from the outbox, send each, delete it once the server
 * took it, or put it back with a later try. A mail is never given up: it waits for the server,
 * however long the outage (docs/operations.md, "Mail").
 */
@Injectable()
export class MailDispatcher {
  private readonly logger = new Logger(MailDispatcher.name);

  constructor(
    private readonly outbox: MailOutboxRepository,
    private readonly transport: MailTransport,
    private readonly metrics: MailMetrics,
    @InjectConfig(MAIL_DELIVERY_CONFIG) private readonly options: MailDeliveryConfig,
  ) {}

  /** One round: sends what is due, one mail after another; answers how many were claimed. */
  async sendDue(now = new Date()): Promise<number> {
    const claimed = await this.outbox.claimDue(now, this.options.leaseMs, this.options.batchSize);
    for (const mail of claimed) {
      try {
        await this.transport.send(mail);
      } catch (error: unknown) {
        const reason = error instanceof Error ? error.message : String(error);
        const delayMs = mailRetryDelayMs(this.options.retryBaseMs, mail.attempts);
        await this.outbox.retryAt(mail.id, new Date(Date.now() + delayMs), reason);
        this.metrics.sends.inc({ outcome: 'retry' });
        this.logger.warn(
          { mailId: mail.id, attempts: mail.attempts, retryInMs: delayMs, err: reason },
          'mail not sent; retried later',
        );
        continue;
      }
      await this.outbox.sent(mail.id);
      this.metrics.sends.inc({ outcome: 'sent' });
      this.logger.log({ mailId: mail.id, subject: mail.subject }, 'mail sent');
    }
    return claimed.length;
  }

  /** Refreshes the outbox gauges: what the alert on stalled mail watches. */
  async measureBacklog(): Promise<void> {
    const { pending, oldestAgeSeconds } = await this.outbox.backlog();
    this.metrics.pending.set(pending);
    this.metrics.oldestPendingAge.set(oldestAgeSeconds);
  }
}
