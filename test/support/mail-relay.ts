import type { DataSource } from 'typeorm';
import { MailDispatcher, MailMetrics, MailOutboxRepository, MailTransport } from '#app/mail';

/** The poller's mail sender, in the test process: empties the outbox into an SMTP server. */
export interface MailRelay {
  stop(): Promise<void>;
  /** The same as `stop`, for lists of things a suite closes. */
  close(): Promise<void>;
}

/**
 * Sends the outbox's mail to `smtpUrl` every `intervalMs`, as the poller's mail loop does (the
 * same dispatcher), for suites that start the api in-process and read the mail it sends.
 */
export function startMailRelay(db: DataSource, smtpUrl: string, intervalMs = 50): MailRelay {
  const transport = new MailTransport({ smtpUrl, from: 'Swap Partners <no-reply@localhost>' });
  const dispatcher = new MailDispatcher(
    new MailOutboxRepository(db),
    transport,
    new MailMetrics(),
    {
      retryBaseMs: 100,
      leaseMs: 30_000,
      batchSize: 20,
    },
  );
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      // A round that fails (the database going away at the end of a suite) is tried again.
      await dispatcher.sendDue().catch(() => 0);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  const stop = async (): Promise<void> => {
    stopped = true;
    await loop;
    transport.onModuleDestroy();
  };
  return { stop, close: stop };
}
