import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { waitUntil } from './wait.js';

/** A mail as a person reads it. */
export interface CaughtMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  /** Every http(s) link in the text, in order. */
  links: string[];
}

/** A real SMTP server in the test process that keeps every mail it is given. */
export interface TestSmtp {
  url: string;
  mails: CaughtMail[];
  /** The first mail (received so far or within `timeoutMs`) to `to` matching `subject`. */
  waitFor(to: string, subject?: RegExp, timeoutMs?: number): Promise<CaughtMail>;
  close(): Promise<void>;
}

function addresses(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list.flatMap((entry: { value?: { address?: string }[] }) =>
    (entry.value ?? []).map((item) => (item.address ?? '').toLowerCase()),
  );
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const mails: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((parsed) => {
          const text = parsed.text ?? '';
          mails.push({
            to: addresses(parsed.to),
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text,
            links: text.match(/https?:\/\/\S+/g) ?? [],
          });
          done();
        })
        .catch((error: Error) => done(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(to, subject, timeoutMs = 30_000) {
      const find = () =>
        mails.find(
          (mail) => mail.to.includes(to.toLowerCase()) && (!subject || subject.test(mail.subject)),
        );
      await waitUntil(`a mail to ${to}`, () => Promise.resolve(find() !== undefined), timeoutMs);
      return find()!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
