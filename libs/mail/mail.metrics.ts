import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';

/**
 * What the poller's mail loop exposes on `/metrics` (docs/operations.md, "Mail"). Its own
 * registry, without the process metrics: the poller merges it into the registry its probe server
 * shows.
 */
@Injectable()
export class MailMetrics {
  readonly registry = new Registry();
  readonly sends = new Counter({
    name: 'mail_sends_total',
    help: 'Tries to hand a mail to the mail server, by outcome: sent, or retry (refused or unanswered, tried again later).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly pending = new Gauge({
    name: 'mail_outbox_pending',
    help: 'Mails in the outbox not yet taken by the mail server.',
    registers: [this.registry],
  });
  readonly oldestPendingAge = new Gauge({
    name: 'mail_outbox_oldest_pending_age_seconds',
    help: 'How long the oldest mail in the outbox has waited since it was queued; 0 when none waits.',
    registers: [this.registry],
  });
}
