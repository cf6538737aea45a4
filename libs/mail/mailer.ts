import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailConfig } from '#app/config';

export const MAIL_CONFIG = Symbol('MAIL_CONFIG');

/** One mail: plain text, and the link it exists for (also what the log shows without SMTP). */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  link?: string;
}

/**
 * Sends mail over SMTP (`SMTP_URL`). Without it (the embedded start) each mail is written to the
 * log with its link, so a person at the console can follow it.
 */
@Injectable()
export class Mailer implements OnModuleDestroy {
  private readonly logger = new Logger(Mailer.name);
  private readonly transport: Transporter | null;

  constructor(@Inject(MAIL_CONFIG) private readonly config: MailConfig) {
    this.transport = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : null;
  }

  async send(mail: Mail): Promise<void> {
    if (!this.transport) {
      this.logger.log(
        { to: mail.to, subject: mail.subject, link: mail.link ?? null },
        'mail (no SMTP_URL: written to the log)',
      );
      return;
    }
    await this.transport.sendMail({
      from: this.config.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
    });
    this.logger.log({ subject: mail.subject }, 'mail sent');
  }

  /** Sends and logs a failure instead of throwing: for notices that must not undo the action. */
  async sendQuietly(mail: Mail): Promise<void> {
    try {
      await this.send(mail);
    } catch (error: unknown) {
      this.logger.warn(
        { subject: mail.subject, err: error instanceof Error ? error.message : String(error) },
        'mail not sent',
      );
    }
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}
