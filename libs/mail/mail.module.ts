import { DynamicModule, Module } from '@nestjs/common';
import type { MailConfig } from '#app/config';
import { MAIL_CONFIG, Mailer } from './mailer.js';

/**
 * Outgoing mail: invitations, password resets and notices. Importers take `MailModule` as it is;
 * its settings come once per app from `MailModule.config(...)` (configuration, so global).
 */
@Module({ providers: [Mailer], exports: [Mailer] })
export class MailModule {
  static config(config: MailConfig): DynamicModule {
    return {
      module: MailConfigModule,
      global: true,
      providers: [{ provide: MAIL_CONFIG, useValue: config }],
      exports: [MAIL_CONFIG],
    };
  }
}

/** Holds `MAIL_CONFIG` for the app (see `MailModule.config`). */
@Module({})
export class MailConfigModule {}
