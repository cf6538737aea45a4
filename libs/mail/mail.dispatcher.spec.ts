import type { MailOutboxRepository, QueuedMail } from './mail-outbox.repository.js';
import { MailDispatcher, mailRetryDelayMs, MAX_RETRY_MS } from './mail.dispatcher.js';
import { MailMetrics } from './mail.metrics.js';
import type { MailTransport } from './mail.transport.js';

function queued(id: string, attempts: number): QueuedMail {
  return { id, to: `${id}@example.com`, subject: 'Reset', text: 'a link', attempts };
}

describe(MailDispatcher.name, () => {
  it('doubles the wait after each failed try, up to ten minutes', () => {
    expect([1, 2, 3, 4].map((n) => mailRetryDelayMs(5000, n))).toEqual([5000, 10000, 20000, 40000]);
    expect(mailRetryDelayMs(5000, 12)).toBe(MAX_RETRY_MS);
    expect(mailRetryDelayMs(5000, 10_000)).toBe(MAX_RETRY_MS);
  });

  it('deletes what the server took and puts back what it refused, never dropping a mail', async () => {
    const calls: string[] = [];
    const outbox = {
      claimDue: () => Promise.resolve([queued('a', 1), queued('b', 3)]),
      sent: (id: string) => Promise.resolve(void calls.push(`sent ${id}`)),
      retryAt: (id: string, at: Date, error: string) =>
        Promise.resolve(
          void calls.push(
            `retry ${id} in ~${Math.round((at.getTime() - Date.now()) / 1000)} s: ${error}`,
          ),
        ),
    } as unknown as MailOutboxRepository;
    const transport = {
      send: (mail: QueuedMail) =>
        mail.id === 'b' ? Promise.reject(new Error('connect ECONNREFUSED')) : Promise.resolve(),
    } as unknown as MailTransport;
    const metrics = new MailMetrics();
    const sut = new MailDispatcher(outbox, transport, metrics, {
      retryBaseMs: 5000,
      leaseMs: 60_000,
      batchSize: 10,
    });

    await expect(sut.sendDue()).resolves.toBe(2);

    expect(calls).toEqual(['sent a', 'retry b in ~20 s: connect ECONNREFUSED']);
    const sends = (await metrics.sends.get()).values.map((v) => [v.labels.outcome, v.value]);
    expect(sends.sort()).toEqual([
      ['retry', 1],
      ['sent', 1],
    ]);
  });
});
