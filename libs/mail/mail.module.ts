import { Module } from '@nestjs/common';
import { MailDispatcher } from './mail.dispatcher.js';
import { MailOutboxRepository } from './mail-outbox.repository.js';
import { MailMetrics } from './mail.metrics.js';
import { MailTransport } from './mail.transport.js';
import { Mailer } from './mailer.js';

/**
 * Outgoing mail, queued: invitations, password resets and notices are written to the outbox
 * (`Mailer`); the poller's `MailDeliveryModule` sends them.
 */
@Module({ providers: [MailOutboxRepository, Mailer], exports: [Mailer] })
export class MailModule {}

/**
 * The poller's side: the SMTP transport (`MAIL_CONFIG`), the dispatcher that empties the outbox
 * (`MAIL_DELIVERY_CONFIG`) and its metrics.
 */
@Module({
  providers: [MailOutboxRepository, MailTransport, MailMetrics, MailDispatcher],
  exports: [MailDispatcher, MailMetrics],
})
export class MailDeliveryModule {}
