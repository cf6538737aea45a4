import request from 'supertest';
import { SIGN_IN_FAILURES_PER_ACCOUNT } from '#app/accounts';
import {
  createDashboardUser,
  DashboardClient,
  signedInClient,
  testEmail,
} from '../support/dashboard.js';
import { startTestApi } from '../support/api.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

const SIGN_IN_FAILED = 'Email or password is incorrect.';

describe('Dashboard security', () => {
  let harness: Harness;
  let organizationId: string;
  let url: string;

  beforeAll(async () => {
    harness = await startHarness({ smtp: true });
    url = harness.api.url;
    organizationId = await createOrganization(harness.api.app, { name: 'Guarded Wallet' });
  });

  afterAll(async () => {
    await harness.close();
  });

  describe('forgery', () => {
    it('refuses a signed-in form without the CSRF token, with a wrong one, or from another origin', async () => {
      const { client } = await signedInClient(harness.api, organizationId, 'owner');

      const missing = await client.post('/partner/mode', { mode: 'test' }, { csrf: null });
      const wrong = await client.post('/partner/mode', { mode: 'test' }, { csrf: 'x'.repeat(64) });
      const foreign = await client.post(
        '/partner/mode',
        { mode: 'test' },
        { origin: 'https://evil.example' },
      );
      const noOrigin = await client.post('/partner/mode', { mode: 'test' }, { origin: null });

      expect([missing.status, wrong.status, foreign.status, noOrigin.status]).toEqual([
        403, 403, 403, 403,
      ]);
      // Nothing changed: the organization still shows live mode.
      expect((await client.get('/partner')).text).toContain('aria-checked="false"');
      const allowed = await client.post('/partner/mode', { mode: 'test', next: '/partner' });
      expect(allowed.status).toBe(303);
      expect((await client.get('/partner')).text).toContain('Test mode: you are looking at test');
    });

    it('accepts Sec-Fetch-Site: same-origin from a browser that sends no Origin', async () => {
      const { client } = await signedInClient(harness.api, organizationId, 'viewer');

      const res = await client.agent
        .post('/partner/mode')
        .type('form')
        .set('Sec-Fetch-Site', 'same-origin')
        .send({ _csrf: client.csrf, mode: 'test' });

      expect(res.status).toBe(303);
    });

    it('refuses the sign-in and sign-up forms without their pre-session token', async () => {
      const { email, password } = await createDashboardUser(harness.api, organizationId, 'viewer');
      const client = new DashboardClient(url);
      await client.get('/partner/login');

      const signIn = await client.post('/partner/login', { email, password }, { csrf: null });
      const signUp = await client.post(
        '/partner/signup',
        {
          organizationName: 'Forged Org',
          email: testEmail('forged'),
          password: 'a-long-enough-password-1',
          feePercent: '1',
        },
        { csrf: null },
      );
      const crossSite = await client.post(
        '/partner/login',
        { email, password },
        { origin: 'http://attacker.test' },
      );

      expect([signIn.status, signUp.status, crossSite.status]).toEqual([403, 403, 403]);
      expect(client.sessionId()).toBeUndefined();
    });
  });

  describe('headers', () => {
    it('sends the dashboard headers on pages, redirects, errors and unknown paths', async () => {
      for (const path of ['/partner/login', '/partner', '/partner/nothing-here']) {
        const res = await request(url).get(path);
        const csp = res.headers['content-security-policy'];
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).toContain("script-src 'self'");
        expect(csp).not.toContain('unsafe-inline');
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['referrer-policy']).toBe('same-origin');
        // The spec's per-IP limit of /partner counts every answer.
        expect(res.headers['ratelimit-policy']).toBe('120;w=1');
      }
    });

    it('serves hashed assets with a long immutable cache, outside /partner', async () => {
      const page = await request(url).get('/partner/login');
      const assets = [...page.text.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
      expect(assets).toEqual([
        expect.stringMatching(/^\/assets\/favicon\.[0-9a-f]{12}\.svg$/),
        expect.stringMatching(/^\/assets\/dashboard\.[0-9a-f]{12}\.css$/),
        expect.stringMatching(/^\/assets\/htmx\.[0-9a-f]{12}\.js$/),
        expect.stringMatching(/^\/assets\/simplewebauthn-browser\.[0-9a-f]{12}\.js$/),
        expect.stringMatching(/^\/assets\/passkeys\.[0-9a-f]{12}\.js$/),
      ]);
      for (const asset of assets) {
        const res = await request(url).get(asset);
        expect(res.status).toBe(200);
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      }
      expect((await request(url).get('/assets/htmx.000000000000.js')).status).toBe(404);
    });
  });

  describe('credentials', () => {
    it('never takes a partner API credential on /partner, nor a dashboard session on /v1', async () => {
      const issued = await request(url)
        .post(`/admin/organizations/${organizationId}/credentials`)
        .set('Authorization', `Bearer ${harness.api.config.adminToken}`)
        .expect(201);
      const { publicKey, secret } = (
        issued.body as { credential: { publicKey: string; secret: string } }
      ).credential;
      const { client } = await signedInClient(harness.api, organizationId, 'owner');

      const page = await request(url)
        .get('/partner')
        .set('Authorization', `Bearer ${publicKey}:${secret}`);
      const api = await request(url)
        .get('/v1/swaps')
        .set('Cookie', `partner_session=${client.sessionId()}`);

      expect(page.status).toBe(303);
      expect(page.headers.location).toBe('/partner/login');
      expect(api.status).toBe(401);
    });
  });

  describe('sign-in', () => {
    it('answers every failure the same, and throttles an account after 5 with Retry-After', async () => {
      const { email, password } = await createDashboardUser(harness.api, organizationId, 'viewer');
      const client = new DashboardClient(url);
      await client.get('/partner/login');

      const unknown = await client.post('/partner/login', {
        email: testEmail('nobody'),
        password: 'whatever-it-is-123',
      });
      const statuses: number[] = [];
      for (let i = 0; i < SIGN_IN_FAILURES_PER_ACCOUNT; i += 1) {
        const wrong = await client.post('/partner/login', { email, password: `${password}x` });
        statuses.push(wrong.status);
        expect(wrong.text).toContain(SIGN_IN_FAILED);
      }
      const blocked = await client.post('/partner/login', { email, password });

      expect(unknown.status).toBe(401);
      expect(unknown.text).toContain(SIGN_IN_FAILED);
      expect(statuses).toEqual(Array(SIGN_IN_FAILURES_PER_ACCOUNT).fill(401));
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(60);
      expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
      expect(client.sessionId()).toBeUndefined();
      // Another account from the same address still signs in.
      const other = await createDashboardUser(harness.api, organizationId, 'viewer');
      expect(
        (await client.post('/partner/login', { email: other.email, password: other.password }))
          .status,
      ).toBe(303);
    });

    it('returns only to pages of this site after sign-in', async () => {
      const { email, password } = await createDashboardUser(harness.api, organizationId, 'viewer');
      for (const next of [
        'https://evil.example/',
        '//evil.example/x',
        '/\\evil.example',
        '/v1/swaps',
      ]) {
        const client = new DashboardClient(url);
        await client.get('/partner/login');
        const res = await client.post('/partner/login', { email, password, next });
        expect(res.status).toBe(303);
        expect(res.headers.location).toBe('/partner');
      }
    });
  });

  describe('behind a trusted https proxy, with PUBLIC_URL', () => {
    it('marks the cookies Secure and takes forms only from PUBLIC_URL', async () => {
      // A second api beside the harness's, on the same database and SMTP server.
      const proxied = await startTestApi({
        SMTP_URL: harness.smtp.url,
        TRUST_PROXY_HOPS: '1',
        PUBLIC_URL: 'https://partners.example.com',
      });
      try {
        const { email, password } = await createDashboardUser(proxied, organizationId, 'viewer');
        const https = (req: request.Test) =>
          req.set('X-Forwarded-Proto', 'https').set('X-Forwarded-For', '203.0.113.7');
        const page = await https(request(proxied.url).get('/partner/login'));
        const csrfCookie = (page.headers['set-cookie'] as unknown as string[]).find((c) =>
          c.startsWith('partner_csrf='),
        )!;
        expect(csrfCookie).toMatch(/; Secure/);
        const token = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
        const signIn = (origin: string) =>
          https(request(proxied.url).post('/partner/login'))
            .type('form')
            .set('Origin', origin)
            .set('Cookie', csrfCookie.split(';')[0])
            .send({ _csrf: token, email, password });

        expect((await signIn(proxied.url)).status).toBe(403);
        const ok = await signIn('https://partners.example.com');
        expect(ok.status).toBe(303);
        const session = (ok.headers['set-cookie'] as unknown as string[]).find((c) =>
          c.startsWith('partner_session='),
        );
        expect(session).toMatch(/; Secure/);
        expect(session).toMatch(/; HttpOnly/);
      } finally {
        await proxied.close();
      }
    });
  });

  describe('sign-out', () => {
    it('ends the session on the server', async () => {
      const { client } = await signedInClient(harness.api, organizationId, 'developer');
      const id = client.sessionId();

      const res = await client.post('/partner/logout', {});

      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/partner/login');
      const reused = await request(url).get('/partner').set('Cookie', `partner_session=${id}`);
      expect(reused.status).toBe(303);
    });
  });
});
