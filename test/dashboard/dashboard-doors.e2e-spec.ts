import { HASH_QUEUE_LIMIT } from '#app/accounts';
import { truncateAll } from '../support/database.js';
import {
  createDashboardUser,
  createTestOrganization,
  csrfTokenIn,
  DashboardClient,
  type DashboardHarness,
  startDashboardApi,
  testEmail,
} from '../support/dashboard.js';
import { waitUntil } from '../support/wait.js';

const PUBLIC_URL = 'https://swaps.example.com';

/** The dashboard's public doors (sign-up, forgot password, sign-in) and the mail behind them. */
describe('Dashboard doors', () => {
  describe('with PUBLIC_URL set', () => {
    let harness: DashboardHarness;
    let organizationId: string;

    beforeAll(async () => {
      await truncateAll();
      harness = await startDashboardApi({ PUBLIC_URL });
      organizationId = await createTestOrganization(harness.api);
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
    let harness: DashboardHarness;
    let organizationId: string;

    beforeAll(async () => {
      await truncateAll();
      harness = await startDashboardApi({ TRUST_PROXY_HOPS: '1' });
      organizationId = await createTestOrganization(harness.api);
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
});
