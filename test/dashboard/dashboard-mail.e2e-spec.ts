import { truncateAll } from '../support/database.js';
import {
  createDashboardUser,
  createTestOrganization,
  csrfTokenIn,
  DashboardClient,
  type DashboardHarness,
  startDashboardApi,
} from '../support/dashboard.js';

const PUBLIC_URL = 'https://swaps.example.com';

describe('Dashboard mail', () => {
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
});
