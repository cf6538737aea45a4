import { ACCOUNT_REQUEST_LIMITS, HASH_QUEUE_LIMIT } from '#app/accounts';
import {
  createDashboardUser,
  csrfTokenIn,
  DashboardClient,
  testEmail,
  testPassword,
} from '../support/dashboard.js';
import { ADMIN_HEADERS } from '../support/api.js';
import { sampleOf } from '../support/metric-names.js';
import { startTestSmtp, type TestSmtp } from '../support/smtp.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitUntil } from '../support/wait.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

const PUBLIC_URL = 'https://swaps.example.com';

/** The dashboard's public doors (sign-up, forgot password, sign-in) and the mail behind them. */
describe('Dashboard doors', () => {
  describe('with PUBLIC_URL set', () => {
    let harness: Harness;
    let organizationId: string;

    beforeAll(async () => {
      harness = await startHarness({ smtp: true, api: { PUBLIC_URL } });
      organizationId = await createOrganization(harness.api.app);
    });

    afterAll(async () => {
      await harness.close();
    });

    it("mails reset links to PUBLIC_URL's host whatever Host the request names", async () => {
      const { email } = await createDashboardUser(harness.api, organizationId, 'developer');
      const client = new DashboardClient(harness.api.url);
      const form = await client.agent
        .get('/partner/forgot-password')
        .set('Host', 'attacker.example');
      const sent = await client.agent
        .post('/partner/forgot-password')
        .set('Host', 'attacker.example')
        .set('Origin', PUBLIC_URL)
        .type('form')
        .send({ _csrf: csrfTokenIn(form.text), email });

      expect(sent.status).toBe(200);
      const mail = await harness.smtp.waitFor(email, /Reset/);
      const link = mail.links.find((l) => l.includes('/partner/reset-password/'));
      expect(link).toBeDefined();
      expect(new URL(link!).origin).toBe(PUBLIC_URL);
      expect(mail.text).not.toContain('attacker.example');
    });
  });

  describe('under a crowd of sign-ins', () => {
    let harness: Harness;
    let organizationId: string;

    beforeAll(async () => {
      harness = await startHarness({ smtp: true, api: { TRUST_PROXY_HOPS: '1' } });
      organizationId = await createOrganization(harness.api.app);
    });

    afterAll(async () => {
      await harness.close();
    });

    it('answers 503 with Retry-After beyond the hash queue, never queueing without end', async () => {
      const { email, password } = await createDashboardUser(harness.api, organizationId, 'viewer');
      const client = new DashboardClient(harness.api.url);
      const form = await client.get('/partner/login');
      const csrf = csrfTokenIn(form.text);
      // Each from its own address, so no per-address limit is what answers.
      const crowd = await Promise.all(
        Array.from({ length: 3 * HASH_QUEUE_LIMIT }, (_, i) =>
          client.agent
            .post('/partner/login')
            .set('Origin', harness.api.url)
            .set('X-Forwarded-For', `198.51.100.${i + 1}`)
            .type('form')
            .send({ _csrf: csrf, email: testEmail('crowd'), password: `wrong-password-${i}` }),
        ),
      );

      const statuses = crowd.map((res) => res.status);
      expect(statuses.filter((s) => s !== 401 && s !== 503)).toEqual([]);
      const busy = crowd.filter((res) => res.status === 503);
      expect(busy.length).toBeGreaterThan(0);
      for (const res of busy) {
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
      }
      // The queue drains: the account's own sign-in goes through.
      await waitUntil(
        'the hash queue to drain',
        async () => {
          const person = new DashboardClient(harness.api.url);
          await person.get('/partner/login');
          const res = await person.post('/partner/login', { email, password });
          return res.status === 303;
        },
        30_000,
        500,
      );
    }, 60_000);
  });

  describe('mail through the outbox, sent by the poller', () => {
    let harness: Harness;
    let smtp: TestSmtp;
    let proxy: TcpProxy;
    let organizationId: string;

    beforeAll(async () => {
      smtp = await startTestSmtp();
      proxy = await TcpProxy.start('127.0.0.1', Number(new URL(smtp.url).port));
      const smtpUrl = `smtp://127.0.0.1:${proxy.port}`;
      // The api and the poller mail through the proxy, which the test cuts.
      harness = await startHarness({
        api: { SMTP_URL: smtpUrl },
        poller: { MAIL_TICK_MS: '100', MAIL_RETRY_BASE_MS: '200' },
      });
      organizationId = await createOrganization(harness.api.app);
    }, 90_000);

    afterAll(async () => {
      await harness.close();
      await proxy.close();
      await smtp.close();
    });

    const pollerMetrics = async (): Promise<string> =>
      (await fetch(`${harness.poller.url}/metrics`, { headers: ADMIN_HEADERS })).text();

    it('answers as usual while SMTP is down and delivers the link once it is back', async () => {
      const { email } = await createDashboardUser(harness.api, organizationId, 'developer');
      proxy.cut();
      const client = new DashboardClient(harness.api.url);
      await client.get('/partner/forgot-password');

      const sent = await client.post('/partner/forgot-password', { email });

      expect(sent.status).toBe(200);
      expect(sent.text).toContain('If an account exists for this email');
      // The poller tried and failed at least twice; the mail waits in the outbox.
      await waitUntil(
        'the poller to retry the mail',
        async () => {
          const rows = await harness.db.query<{ attempts: number }[]>(
            `SELECT attempts FROM mail_outbox WHERE recipient = $1 AND subject LIKE 'Reset%'`,
            [email],
          );
          return rows.length === 1 && rows[0].attempts >= 2;
        },
        30_000,
      );
      // Only the reset waits: the invitation that made the user may have gone out before the cut.
      expect(smtp.mails.some((m) => m.to.includes(email) && /Reset/.test(m.subject))).toBe(false);
      // The operator sees it wait (the MailDeliveryStalled alert reads the age).
      await waitUntil('the poller to show the waiting mail on /metrics', async () => {
        const text = await pollerMetrics();
        return (
          sampleOf(text, 'mail_outbox_pending') >= 1 &&
          sampleOf(text, 'mail_outbox_oldest_pending_age_seconds') > 0 &&
          sampleOf(text, 'mail_sends_total{outcome="retry"}') >= 2
        );
      });

      proxy.restore();

      const mail = await smtp.waitFor(email, /Reset/, 30_000);
      expect(mail.links.some((l) => l.includes('/partner/reset-password/'))).toBe(true);
      await waitUntil('the sent mail to leave the outbox', async () => {
        const rows = await harness.db.query<unknown[]>(
          `SELECT id FROM mail_outbox WHERE recipient = $1 AND subject LIKE 'Reset%'`,
          [email],
        );
        return rows.length === 0;
      });
      await waitUntil('the poller to show an empty outbox on /metrics', async () => {
        const text = await pollerMetrics();
        return (
          sampleOf(text, 'mail_outbox_pending') === 0 &&
          sampleOf(text, 'mail_outbox_oldest_pending_age_seconds') === 0 &&
          sampleOf(text, 'mail_sends_total{outcome="sent"}') >= 1
        );
      });
    }, 90_000);
  });

  describe('limits on resets and sign-ups', () => {
    let harness: Harness;
    let organizationId: string;

    beforeAll(async () => {
      harness = await startHarness({ smtp: true });
      organizationId = await createOrganization(harness.api.app);
    });

    afterAll(async () => {
      await harness.close();
    });

    it('limits reset links per email, known or not, with the same 429 answer', async () => {
      const { email } = await createDashboardUser(harness.api, organizationId, 'viewer');
      const client = new DashboardClient(harness.api.url);
      await client.get('/partner/forgot-password');
      const { perEmail } = ACCOUNT_REQUEST_LIMITS.passwordReset;
      for (const address of [email, testEmail('nobody')]) {
        const answers: number[] = [];
        for (let i = 0; i <= perEmail; i += 1) {
          answers.push((await client.post('/partner/forgot-password', { email: address })).status);
        }
        expect(answers).toEqual([...Array<number>(perEmail).fill(200), 429]);
        const refused = await client.post('/partner/forgot-password', { email: address });
        expect(refused.status).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect(refused.text).toContain('Too many reset links');
      }
      // Only the allowed requests mailed anyone.
      await harness.smtp.waitFor(email, /Reset/);
      expect(
        harness.smtp.mails.filter((m) => m.to.includes(email.toLowerCase())).length,
      ).toBeLessThanOrEqual(perEmail + 1);
    });

    it('limits sign-ups per client address', async () => {
      const client = new DashboardClient(harness.api.url);
      await client.get('/partner/signup');
      const { perIp } = ACCOUNT_REQUEST_LIMITS.signUp;
      const answers: number[] = [];
      for (let i = 0; i <= perIp; i += 1) {
        const res = await client.post('/partner/signup', {
          organizationName: `Flood ${i}`,
          email: testEmail('flood'),
          password: testPassword(),
          feePercent: '1',
        });
        answers.push(res.status);
      }
      expect(answers.slice(0, perIp).every((status) => status === 303)).toBe(true);
      expect(answers[perIp]).toBe(429);
    }, 120_000);
  });
});
