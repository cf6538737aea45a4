import { DashboardClient, signedInClient } from '../support/dashboard.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

/** What a hostile or careless client types into a field. */
const HOSTILE: string[] = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  'x'.repeat(5000),
  '\u202eevil\u202c',
  '😀'.repeat(300),
  '\ud800',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' OR 1=1 --",
  '../../etc/passwd',
  '%00',
  '-1',
  '1e309',
  'NaN',
  '00000000-0000-0000-0000-000000000000',
  'owner',
  'test',
];

/** A path segment of `value`; a lone surrogate becomes the invalid UTF-8 a client could send. */
function segment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

function fields(names: string[], value: string, base: Record<string, string>) {
  return names.map((name) => ({ ...base, [name]: value }));
}

describe('Dashboard forms under hostile input', () => {
  let harness: Harness;
  let url: string;
  let owner: Awaited<ReturnType<typeof signedInClient>>;

  beforeAll(async () => {
    harness = await startHarness({ smtp: true });
    url = harness.api.url;
    const organizationId = await createOrganization(harness.api.app, { name: 'Fuzzed Wallet' });
    owner = await signedInClient(harness.api, organizationId, 'owner');
    // Within 5 minutes of a confirmation team forms ask no password: the fuzz reaches past it.
    await owner.client.post('/partner/team/invitations', {
      email: 'warmup@example.com',
      role: 'viewer',
      confirmPassword: owner.password,
    });
  });

  afterAll(async () => {
    await harness.close();
  });

  async function expectNo5xx(
    path: string,
    bodies: Record<string, string>[],
    client: DashboardClient,
  ) {
    for (const body of bodies) {
      const res = await client.post(path, body);
      if (res.status >= 500 || (res.text.includes('at ') && res.text.includes('.ts:'))) {
        throw new Error(`${path} ${JSON.stringify(body).slice(0, 200)} answered ${res.status}`);
      }
      // A value echoed inside a quoted attribute (its quotes escaped) is text, not markup.
      const markup = res.text.replace(/="[^"]*"/g, '=""');
      expect(markup).not.toContain('<script>alert(1)</script>');
      expect(markup).not.toContain('<img src=x');
    }
  }

  it('signed-in forms answer 2xx-4xx to every hostile value, and never echo markup', async () => {
    const { client } = owner;
    for (const value of HOSTILE) {
      await expectNo5xx('/partner/mode', fields(['mode', 'next'], value, { mode: 'test' }), client);
      await expectNo5xx(
        '/partner/team/invitations',
        fields(['email', 'role'], value, { email: 'a@example.com', role: 'viewer' }),
        client,
      );
      await expectNo5xx(
        `/partner/team/${segment(value)}/role`,
        fields(['role'], value, { role: 'viewer' }),
        client,
      );
      await expectNo5xx(`/partner/team/${segment(value)}/remove`, [{}], client);
      await expectNo5xx(`/partner/security/sessions/${segment(value)}/end`, [{}], client);
      await expectNo5xx(
        '/partner/security/password',
        fields(['confirmPassword', 'newPassword'], value, {
          confirmPassword: 'wrong-password-1',
          newPassword: 'another-long-password',
        }),
        client,
      );
      const audit = await client.get(`/partner/audit-log?before=${segment(value)}`);
      expect(audit.status).toBe(200);
    }
    // A repeated field and an oversized body.
    const repeated = await client.agent
      .post('/partner/mode')
      .type('form')
      .set('Origin', url)
      .send(`_csrf=${client.csrf}&mode=test&mode=live`);
    expect(repeated.status).toBeLessThan(500);
    const huge = await client.agent
      .post('/partner/mode')
      .type('form')
      .set('Origin', url)
      .send(`_csrf=${client.csrf}&mode=${'a'.repeat(70_000)}`);
    expect(huge.status).toBe(413);
    const json = await client.agent
      .post('/partner/mode')
      .set('Origin', url)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ _csrf: client.csrf, mode: ['test'] }));
    expect(json.status).toBeLessThan(500);
    expect((await client.get('/partner')).status).toBe(200);
  }, 120_000);

  it('public forms answer 2xx-4xx to every hostile value', async () => {
    const client = new DashboardClient(url);
    await client.get('/partner/login');
    for (const value of HOSTILE) {
      await expectNo5xx(
        '/partner/signup',
        fields(['organizationName', 'email', 'password', 'feePercent'], value, {
          organizationName: 'Fuzz Org',
          email: 'fuzz-signup@example.com',
          password: 'a-long-enough-password-1',
          feePercent: '1',
        }),
        client,
      );
      await expectNo5xx('/partner/forgot-password', [{ email: value }], client);
      await expectNo5xx(`/partner/reset-password/${segment(value)}`, [{ password: value }], client);
      await expectNo5xx(`/partner/invitations/${segment(value)}`, [{ password: value }], client);
      await expectNo5xx(`/partner/signup/confirm/${segment(value)}`, [{}], client);
      // An application signs nobody in: the sign-in page stays a page.
      const page = await client.get(`/partner/login?next=${segment(value)}`);
      expect(page.status).toBe(200);
    }
    // Last: sign-in failures spend this address's budget (30 in 15 minutes), then answer 429.
    for (const value of HOSTILE) {
      await expectNo5xx(
        '/partner/login',
        fields(['email', 'password', 'next'], value, { email: 'x@example.com', password: 'y' }),
        client,
      );
    }
  }, 120_000);
});
