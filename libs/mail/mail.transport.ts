import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { InjectConfig, MAIL_CONFIG, type MailConfig } from '#app/config';
import type { Mail } from './mail.js';

/** Longest an SMTP connection, greeting or reply may take before the try fails. */
const SMTP_TIMEOUT_MS = 10_000;

/**
 * Hands a mail to the SMTP server (`SMTP_URL`). Without it (the embedded start, development)
 * each mail is written to the log with its link, so a person at the console can follow it.
 */
@Injectable()
export class MailTransport implements OnModuleDestroy {
  private readonly logger = new Logger(MailTransport.name);
  private readonly transport: Transporter | null;

  constructor(@InjectConfig(MAIL_CONFIG) private readonly config: MailConfig) {
    this.transport = config.smtpUrl
      ? nodemailer.createTransport({
          url: config.smtpUrl,
          connectionTimeout: SMTP_TIMEOUT_MS,
          greetingTimeout: SMTP_TIMEOUT_MS,
          socketTimeout: SMTP_TIMEOUT_MS,
        })
      : null;
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
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}
