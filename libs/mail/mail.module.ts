import { DynamicModule, Module } from '@nestjs/common';
import type { MailConfig } from '#app/config';
import {
  MAIL_DELIVERY_OPTIONS,
  MailDispatcher,
  type MailDeliveryOptions,
} from './mail.dispatcher.js';
import { MailOutboxRepository } from './mail-outbox.repository.js';
import { MAIL_CONFIG, MailTransport } from './mail.transport.js';
import { Mailer } from './mailer.js';

/**
 * Outgoing mail, queued: invitations, password resets and notices are written to the outbox
 * (`Mailer`); the poller's `MailDeliveryModule` sends them.
 */
@Module({ providers: [MailOutboxRepository, Mailer], exports: [Mailer] })
export class MailModule {}

/** The poller's side: the SMTP transport and the dispatcher that empties the outbox. */
@Module({})
export class MailDeliveryModule {
  static forRoot(config: MailConfig, options: MailDeliveryOptions): DynamicModule {
    return {
      module: MailDeliveryModule,
      providers: [
        { provide: MAIL_CONFIG, useValue: config },
        { provide: MAIL_DELIVERY_OPTIONS, useValue: options },
        MailOutboxRepository,
        MailTransport,
        MailDispatcher,
      ],
      exports: [MailDispatcher],
    };
  }
}
